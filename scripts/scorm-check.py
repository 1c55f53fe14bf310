"""Checks a SCORM package's zip against its manifest: imsmanifest.xml at the zip's root, the
launch page and every file the manifest lists inside the zip, and every file of the zip listed.

    python3 scripts/scorm-check.py dist-scorm/resilience-playground-km0.zip
"""
import sys
import zipfile
import xml.etree.ElementTree as ET

NS = {"cp": "http://www.imsproject.org/xsd/imscp_rootv1p1p2"}


def main(path):
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        if "imsmanifest.xml" not in names:
            return f"{path}: no imsmanifest.xml at the zip's root"
        manifest = ET.fromstring(z.read("imsmanifest.xml"))
    problems = []
    listed = set()
    for resource in manifest.iterfind(".//cp:resource", NS):
        launch = resource.get("href", "").split("?")[0]
        if launch not in names:
            problems.append(f"the launch page {launch!r} is not in the zip")
        for f in resource.iterfind("cp:file", NS):
            listed.add(f.get("href"))
    problems += [f"the manifest lists {f!r}, which the zip lacks" for f in sorted(listed - names)]
    problems += [f"the zip holds {f!r}, which the manifest does not list"
                 for f in sorted(names - listed - {"imsmanifest.xml"}) if not f.endswith("/")]
    if problems:
        return f"{path}:\n  " + "\n  ".join(problems)
    print(f"{path}: the manifest lists all {len(listed)} files of the zip")
    return None


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python3 scripts/scorm-check.py PACKAGE.zip")
    sys.exit(main(sys.argv[1]))
