//! A code to join the run on the stage: the link students open on their phones (the exact run,
//! every changed setting included, without the projector's view) and its QR code, encoded by
//! the `qrcode` crate and drawn as one SVG path.

use qrcode::{Color, EcLevel, QrCode};

/// The link a phone opens: `link` (the playground's, with its query) without the keys that
/// only suit the stage (`projector`), so the phone shows the student-sized page.
pub fn join_link(link: &str) -> String {
    let (base, query) = link.split_once('?').unwrap_or((link, ""));
    let (query, fragment) = query
        .split_once('#')
        .map_or((query, None), |(q, f)| (q, Some(f)));
    let kept: Vec<&str> = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .filter(|pair| pair.split('=').next() != Some("projector"))
        .collect();
    let mut out = base.to_string();
    if !kept.is_empty() {
        out.push('?');
        out.push_str(&kept.join("&"));
    }
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// Why a phone could not open `link`, when it is a file on this computer or a loopback
/// address; `None` when it can.
pub fn unreachable_from_a_phone(link: &str) -> Option<&'static str> {
    let lower = link.trim().to_ascii_lowercase();
    if lower.starts_with("file:") {
        Some("this page is a file on this computer, which a phone cannot open: serve the playground (trunk serve, or any web host) and the code will lead there")
    } else if ["://127.", "://localhost", "://[::1]"]
        .iter()
        .any(|host| lower.contains(host))
    {
        Some("this page's address is this computer's own (localhost), which a phone cannot reach: open the playground by the computer's network address or from its web host")
    } else {
        None
    }
}

/// Light modules around a code, as the standard asks.
pub const QUIET: usize = 4;

/// The QR code of `link` as an SVG element with the id `id`, ready to put in a page (the same
/// markup whether the page's module draws it or the QR module does, on demand); a message
/// when the link is too long to encode.
pub fn qr_svg(link: &str, id: &str) -> Result<String, String> {
    let m = QrModules::encode(link)?;
    let side = m.width + 2 * QUIET;
    let id: String = id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    Ok(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"join-qr\" id=\"{id}\" \
         viewBox=\"0 0 {side} {side}\" shape-rendering=\"crispEdges\" role=\"img\" \
         aria-label=\"QR code of the link below: a phone's camera opens it\">\
         <rect width=\"{side}\" height=\"{side}\" fill=\"#ffffff\"/>\
         <path d=\"{}\" fill=\"#000000\"/></svg>",
        m.svg_path(QUIET)
    ))
}

/// A QR code's modules: `width` by `width`, dark or light, row by row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QrModules {
    /// Modules on a side (without the quiet zone).
    pub width: usize,
    /// Whether each module is dark, row after row.
    pub dark: Vec<bool>,
}

impl QrModules {
    /// The code for `text`, with medium error correction (a projector's glare and a phone at
    /// the back of the room lose a few modules); a message when it is too long to encode.
    pub fn encode(text: &str) -> Result<QrModules, String> {
        let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M)
            .map_err(|e| format!("the link is too long for a QR code ({e})"))?;
        Ok(QrModules {
            width: code.width(),
            dark: code
                .to_colors()
                .into_iter()
                .map(|c| c == Color::Dark)
                .collect(),
        })
    }

    /// Whether the module at column `x`, row `y` is dark.
    pub fn is_dark(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.width && self.dark[y * self.width + x]
    }

    /// The dark modules as one SVG path in module units, offset by a `quiet` zone of light
    /// modules on each side: each run of dark modules in a row is one rectangle.
    pub fn svg_path(&self, quiet: usize) -> String {
        let mut path = String::new();
        for y in 0..self.width {
            let mut x = 0;
            while x < self.width {
                if !self.is_dark(x, y) {
                    x += 1;
                    continue;
                }
                let start = x;
                while x < self.width && self.is_dark(x, y) {
                    x += 1;
                }
                path.push_str(&format!(
                    "M{} {}h{}v1h-{}z",
                    start + quiet,
                    y + quiet,
                    x - start,
                    x - start
                ));
            }
        }
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_is_one_svg_with_its_id_and_every_dark_module_drawn() {
        let link = "https://class.example/p/index.html?preset=cb";
        let svg = qr_svg(link, "join-qr\"><script>").unwrap();
        let m = QrModules::encode(link).unwrap();
        assert!(svg.starts_with("<svg "), "{svg}");
        assert!(svg.contains("id=\"join-qrscript\""), "{svg}");
        assert!(svg.contains(&format!("viewBox=\"0 0 {0} {0}\"", m.width + 2 * QUIET)));
        assert!(svg.contains(&m.svg_path(QUIET)));
        let long = "x".repeat(5_000);
        assert!(qr_svg(&long, "q").unwrap_err().contains("too long"));
    }

    #[test]
    fn the_phone_gets_the_run_without_the_stage() {
        assert_eq!(
            join_link(
                "https://class.example/p/index.html?preset=cb&timeout=0.1&projector=on&t=3.0"
            ),
            "https://class.example/p/index.html?preset=cb&timeout=0.1&t=3.0"
        );
        assert_eq!(
            join_link("https://class.example/p/index.html?projector=on"),
            "https://class.example/p/index.html"
        );
        assert_eq!(
            join_link("https://class.example/p/?preset=cb#x"),
            "https://class.example/p/?preset=cb#x"
        );
    }

    #[test]
    fn a_link_a_phone_cannot_reach_is_named() {
        assert!(unreachable_from_a_phone("file:///home/t/resilience-playground.html").is_some());
        assert!(unreachable_from_a_phone("http://127.0.0.1:8080/index.html").is_some());
        assert!(unreachable_from_a_phone("http://localhost:8080/").is_some());
        assert_eq!(unreachable_from_a_phone("https://class.example/p/"), None);
        assert_eq!(unreachable_from_a_phone("http://192.168.1.20:8080/"), None);
    }

    /// Draws `modules` as a picture, `scale` pixels a module with a quiet zone, and reads it
    /// back with a QR decoder, as a phone's camera would.
    fn decode(modules: &QrModules, scale: usize) -> String {
        let quiet = 4;
        let side = (modules.width + 2 * quiet) * scale;
        let mut image = rqrr::PreparedImage::prepare_from_greyscale(side, side, |x, y| {
            let (mx, my) = (x / scale, y / scale);
            let dark = mx >= quiet && my >= quiet && modules.is_dark(mx - quiet, my - quiet);
            if dark {
                0
            } else {
                255
            }
        });
        let grids = image.detect_grids();
        assert_eq!(grids.len(), 1, "one code found");
        grids[0].decode().expect("it decodes").1
    }

    #[test]
    fn the_code_reads_back_to_the_link() {
        let link = "https://class.example/playground/index.html?preset=cb&seed=0&patterns=timeout%2Cbreaker&timeout=0.1&cooldown=2&t=12.0&speed=1&latency=service";
        let modules = QrModules::encode(link).expect("it encodes");
        assert_eq!(modules.dark.len(), modules.width * modules.width);
        assert_eq!(decode(&modules, 4), link);
    }

    #[test]
    fn the_path_draws_exactly_the_dark_modules() {
        let modules = QrModules::encode("https://class.example/p/?preset=cb").unwrap();
        let path = modules.svg_path(4);
        // Each rectangle `M x y h n v1 h-n z` covers n dark modules of its row.
        let mut drawn = vec![false; modules.dark.len()];
        for rect in path.split('M').filter(|r| !r.is_empty()) {
            let (xy, rest) = rect.split_once('h').unwrap();
            let (x, y) = xy.split_once(' ').unwrap();
            let (x, y): (usize, usize) = (
                x.parse::<usize>().unwrap() - 4,
                y.parse::<usize>().unwrap() - 4,
            );
            let n: usize = rest.split_once('v').unwrap().0.parse().unwrap();
            for i in x..x + n {
                assert!(!drawn[y * modules.width + i], "drawn twice");
                drawn[y * modules.width + i] = true;
            }
        }
        assert_eq!(drawn, modules.dark);
    }

    #[test]
    fn a_link_too_long_is_refused_with_a_message() {
        let long = "x".repeat(5_000);
        let err = QrModules::encode(&long).unwrap_err();
        assert!(
            err.starts_with("the link is too long for a QR code"),
            "{err}"
        );
    }
}
