//! The files under the teaching crate's `page/` use each other without a circle: no file,
//! through the files it uses, comes back to itself; the simulator's modules neither. A file
//! uses another when its code (comments and its `tests` module left out) names that module by
//! path: `super::x`, `crate::page::x` (`crate::sim::x`), or `use super::{x, ...}`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Every module under `dir` (below the crate's root) by its path below it (`lessons::rules`;
/// `` for mod.rs), with its code.
fn modules(dir: &str) -> BTreeMap<String, String> {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<String, String>) {
        for entry in fs::read_dir(dir).expect("the folder is readable") {
            let path = entry.expect("an entry").path();
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                let mut inner = prefix.to_vec();
                inner.push(name);
                walk(&path, &inner, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let mut module = prefix.to_vec();
                if name != "mod" {
                    module.push(name);
                }
                out.insert(module.join("::"), fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(dir),
        &[],
        &mut out,
    );
    out
}

/// The code without its tests module and its comments.
fn code(source: &str) -> String {
    let source = source
        .find("#[cfg(test)]\nmod tests")
        .map_or(source, |at| &source[..at]);
    source
        .lines()
        .map(|line| line.find("//").map_or(line, |at| &line[..at]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The longest module among `known` that `parts` starts with. A name the folder's `mod.rs`
/// re-exports (`pub use playground::{state, ...}`, `charts::{axis, ...}`) stands for the
/// module it names.
fn resolve(parts: &[&str], known: &BTreeMap<String, String>) -> Option<String> {
    let mut parts: Vec<String> = parts.iter().map(|p| p.to_string()).collect();
    if let Some(whole) = parts.first().and_then(|first| alias(first, known)) {
        parts.splice(0..1, whole.split("::").map(str::to_string));
    }
    (1..=parts.len())
        .rev()
        .map(|n| parts[..n].join("::"))
        .find(|m| known.contains_key(m))
}

/// The module `name` stands for when the folder's `mod.rs` re-exports it under that name.
fn alias(name: &str, known: &BTreeMap<String, String>) -> Option<String> {
    let root = code(known.get("")?);
    for statement in root.split(';') {
        let Some(rest) = statement.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((group, items)) = rest.split_once("::{") else {
            continue;
        };
        for item in items.trim_end_matches('}').split(',') {
            let item = item.trim();
            let (module, as_name) = item.split_once(" as ").unwrap_or((item, item));
            if as_name.trim() == name {
                return Some(format!("{}::{}", group.trim(), module.trim()));
            }
        }
    }
    None
}

/// The first name of each item in the brace group `group` starts with (`{a, b::{c, d}}`
/// gives `a` and `b`).
fn top_level_names(group: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let (mut depth, mut start) = (0, 1);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' | ',' if depth == 1 => {
                let item = group[start..i].trim();
                names.push(item.split("::").next().unwrap_or(""));
                start = i + 1;
                if c == '}' {
                    break;
                }
            }
            '}' => depth -= 1,
            _ => {}
        }
    }
    names
}

/// The modules `module` uses, `root` being the folder's name in `crate::root::...`.
fn uses(
    root: &str,
    module: &str,
    source: &str,
    known: &BTreeMap<String, String>,
) -> BTreeSet<String> {
    let code = code(source);
    let here: Vec<&str> = if module.is_empty() {
        Vec::new()
    } else {
        module.split("::").collect()
    };
    let mut out = BTreeSet::new();
    let is_path = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
    let mut rest = code.as_str();
    while let Some(at) = rest.find(['s', 'c']) {
        let before = rest[..at].chars().last();
        let tail = &rest[at..];
        let end = tail.find(|c: char| !is_path(c)).unwrap_or(tail.len());
        let path = &tail[..end];
        rest = &tail[end.max(1)..];
        if before.is_some_and(is_path) {
            continue;
        }
        let parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
        let target: Vec<&str> = match parts.first() {
            Some(&"crate") if parts.get(1) == Some(&root) => parts[2..].to_vec(),
            Some(&"super") => {
                let ups = parts.iter().take_while(|p| **p == "super").count();
                let mut base: Vec<&str> = here[..here.len().saturating_sub(ups)].to_vec();
                base.extend(&parts[ups..]);
                // `use super::{a, b::c}`: each name in the braces.
                if parts.len() == ups && tail[end..].starts_with('{') {
                    for name in top_level_names(&tail[end..]) {
                        let mut whole = base.clone();
                        whole.push(name);
                        if let Some(m) = resolve(&whole, known) {
                            out.insert(m);
                        }
                    }
                    continue;
                }
                base
            }
            _ => continue,
        };
        if let Some(m) = resolve(&target, known) {
            out.insert(m);
        }
    }
    out.remove(module);
    out.remove("");
    out
}

/// A circle through `start`, if any, as the modules along it.
fn circle(
    start: &str,
    edges: &BTreeMap<String, BTreeSet<String>>,
    path: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if let Some(at) = path.iter().position(|m| m == start) {
        let mut found = path[at..].to_vec();
        found.push(start.to_string());
        return Some(found);
    }
    if done.contains(start) {
        return None;
    }
    path.push(start.to_string());
    for next in &edges[start] {
        if let Some(found) = circle(next, edges, path, done) {
            return Some(found);
        }
    }
    path.pop();
    done.insert(start.to_string());
    None
}

fn edges(root: &str, known: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    known
        .iter()
        .map(|(m, source)| (m.clone(), uses(root, m, source, known)))
        .collect()
}

#[test]
fn no_file_under_src_page_comes_back_to_itself() {
    let known = modules("crates/teaching/src/page");
    let edges = edges("page", &known);
    let state = &edges["playground::state"];
    assert!(state.contains("playground::settings") && state.contains("playground::runs"));
    assert!(
        edges["embedding::widget"].contains("playground::state"),
        "an old path (crate::page::state) is read through mod.rs's re-export"
    );
    let mut done = BTreeSet::new();
    for m in edges.keys() {
        if let Some(found) = circle(m, &edges, &mut Vec::new(), &mut done) {
            panic!("an import circle under src/page: {}", found.join(" -> "));
        }
    }
}

/// The reader finds a circle where there is one.
#[test]
fn a_circle_is_found() {
    let mut known = BTreeMap::new();
    known.insert("a".to_string(), "use super::b::Thing;".to_string());
    known.insert(
        "b".to_string(),
        "use super::{c::{X, Y}, d};\n// super::a in a comment is no use".to_string(),
    );
    known.insert(
        "c".to_string(),
        "fn f() { crate::page::a::g() }".to_string(),
    );
    known.insert("d".to_string(), String::new());
    let edges = edges("page", &known);
    assert_eq!(edges["b"], ["c".to_string(), "d".to_string()].into());
    let found = circle("a", &edges, &mut Vec::new(), &mut BTreeSet::new());
    assert_eq!(found.unwrap().join(" -> "), "a -> b -> c -> a");
}

/// The simulator's modules, each taken whole (`model` with the files under it): none comes
/// back to itself through the modules it uses.
#[test]
fn no_module_of_the_simulator_comes_back_to_itself() {
    // Test files (`model/tests.rs`, `trace_tests.rs`) are the tests modules of their parents.
    let files: BTreeMap<String, String> = modules("crates/sim/src/sim")
        .into_iter()
        .filter(|(path, _)| !path.ends_with("tests"))
        .collect();
    let mut known: BTreeMap<String, String> = BTreeMap::new();
    for (path, source) in &files {
        let top = path.split("::").next().unwrap_or("").to_string();
        known.entry(top).or_default().push_str(&code(source));
    }
    // `super::x` inside `model/` means `model::x`: read each file's paths from the simulator's
    // root instead, so the edges are between whole modules.
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, source) in &files {
        let top = path.split("::").next().unwrap_or("").to_string();
        let used = uses("sim", path, source, &files);
        let entry = edges.entry(top.clone()).or_default();
        for m in used {
            let other = m.split("::").next().unwrap_or("").to_string();
            if other != top && !other.is_empty() {
                entry.insert(other);
            }
        }
    }
    for m in known.keys() {
        edges.entry(m.clone()).or_default();
    }
    assert!(edges["model"].contains("trace"), "{edges:?}");
    // The parameter table, its parsing and its checks sit above the model: a room may
    // declare its pattern's rows (the row types are the model's, `model::param`), but
    // nothing of `params` comes into `model`.
    assert!(
        !edges["model"].contains("params"),
        "model imports params: {:?}",
        edges["model"]
    );
    let mut done = BTreeSet::new();
    for m in edges.keys() {
        if let Some(found) = circle(m, &edges, &mut Vec::new(), &mut done) {
            panic!("an import circle in the simulator: {}", found.join(" -> "));
        }
    }
}

/// The teaching crate's modules (`page`, `exercises`, `library_config`), each taken whole:
/// none comes back to itself through the ones it names by path (`crate::page::...`). The
/// exercises use the page (a run, the charts' numbers), and the page names no exercise.
#[test]
fn no_module_of_the_teaching_crate_comes_back_to_itself() {
    let tops = ["page", "exercises", "library_config"];
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for top in tops {
        let used = edges.entry(top.to_string()).or_default();
        for source in modules(&format!("crates/teaching/src/{top}")).values() {
            let code = code(source);
            for other in tops.iter().filter(|o| **o != top) {
                let named = [format!("crate::{other}::"), format!("crate::{other};")];
                if named.iter().any(|n| code.contains(n.as_str())) {
                    used.insert(other.to_string());
                }
            }
        }
    }
    assert!(edges["exercises"].contains("page"), "{edges:?}");
    assert!(edges["page"].contains("library_config"), "{edges:?}");
    let mut done = BTreeSet::new();
    for m in edges.keys() {
        if let Some(found) = circle(m, &edges, &mut Vec::new(), &mut done) {
            panic!(
                "an import circle in the teaching crate: {}",
                found.join(" -> ")
            );
        }
    }
}
