//! What an embedded widget shows and with which settings, read from its element's attributes
//! (or an `embed.html` query string). Pure: the browser side only hands over the pairs.

use super::widget_look::WidgetLook;
use crate::page::jitter::JitterSettings;
use crate::page::permalink::{from_pairs_or, parse_query};
use crate::page::state::Page;
use crate::sim::scenario::{Preset, Scenario};

/// The preset of a widget whose attributes name none: the lesson's timeout and breaker, so a
/// circuit diagram has a breaker to draw.
pub const WIDGET_PRESET: Preset = Preset::Lesson(Scenario::Cb);

/// One kind of widget a course page can embed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WidgetKind {
    /// The whole playground.
    Playground,
    /// The circuit breaker's state diagram, with a timeline to play it.
    CircuitDiagram,
    /// The latency histogram, with a timeline to play it.
    Histogram,
    /// The lesson's four scenarios side by side.
    LessonTable,
    /// One of the exercises, by its number (1 to 4).
    Exercise(u8),
    /// The backoff blog's contention experiment, five strategies side by side.
    Jitter,
    /// One step of a guided lesson (`lesson`, `step` attributes), with Next and Back.
    LessonStep,
    /// The metastability explorer: load by trigger length, and the cures that move the
    /// boundary.
    Metastability,
    /// Lesson 000's protection as Resilience4j, Polly, Envoy and gRPC write it, side by side
    /// on one run each, and the reader's own configuration of any of them beside them.
    CompareLibraries,
}

impl WidgetKind {
    /// Every kind, in the order a course author's documentation lists them.
    pub const ALL: [WidgetKind; 12] = [
        WidgetKind::Playground,
        WidgetKind::CircuitDiagram,
        WidgetKind::Histogram,
        WidgetKind::LessonTable,
        WidgetKind::Exercise(1),
        WidgetKind::Exercise(2),
        WidgetKind::Exercise(3),
        WidgetKind::Exercise(4),
        WidgetKind::Jitter,
        WidgetKind::LessonStep,
        WidgetKind::Metastability,
        WidgetKind::CompareLibraries,
    ];

    /// The kinds that show one run each, which the charts module (`widget-charts.js`) draws
    /// alone: a course page whose widgets are all of these downloads that module, not the
    /// whole one (`widgets.js` keeps the same list).
    pub const CHARTS: [WidgetKind; 3] = [
        WidgetKind::CircuitDiagram,
        WidgetKind::Histogram,
        WidgetKind::LessonTable,
    ];

    /// A lesson's step with the views of one run, which the lessons module
    /// (`widget-lessons.js`) draws alone: a course page whose widgets are all of these
    /// downloads that module, not the whole one (`widgets.js` keeps the same list).
    pub const LESSONS: [WidgetKind; 4] = [
        WidgetKind::LessonStep,
        WidgetKind::CircuitDiagram,
        WidgetKind::Histogram,
        WidgetKind::LessonTable,
    ];

    /// The lessons' exercises, which the exercises module (`widget-exercises.js`) draws alone:
    /// the exercises' page and a course page whose widgets are all of these download that
    /// module, not the whole one (`widgets.js` keeps the same list).
    pub const EXERCISES: [WidgetKind; 4] = [
        WidgetKind::Exercise(1),
        WidgetKind::Exercise(2),
        WidgetKind::Exercise(3),
        WidgetKind::Exercise(4),
    ];

    /// The explorers, each computing a grid of runs of its own (not the page's run), which the
    /// explorers module (`widget-explorers.js`) draws alone: a course page whose widgets are all
    /// of these downloads that module, and the playground's page loads it when the student
    /// opens one (`widgets.js` keeps the same list).
    pub const EXPLORERS: [WidgetKind; 2] = [WidgetKind::Jitter, WidgetKind::Metastability];

    /// The libraries' comparison, which runs the four libraries' readers: the libraries module
    /// (`widget-libraries.js`) draws it alone, so no other widget's module carries the readers
    /// (`widgets.js` keeps the same list).
    pub const LIBRARIES: [WidgetKind; 1] = [WidgetKind::CompareLibraries];

    /// The value of the `kind` attribute.
    pub fn key(self) -> String {
        match self {
            WidgetKind::Playground => "playground".into(),
            WidgetKind::CircuitDiagram => "circuit-diagram".into(),
            WidgetKind::Histogram => "histogram".into(),
            WidgetKind::LessonTable => "lesson-table".into(),
            WidgetKind::Exercise(n) => format!("exercise-{n}"),
            WidgetKind::Jitter => "jitter".into(),
            WidgetKind::LessonStep => "lesson-step".into(),
            WidgetKind::Metastability => "metastability".into(),
            WidgetKind::CompareLibraries => "compare-libraries".into(),
        }
    }

    /// What it shows, in a few words ("latency histogram"): its landmarks' and its embed's
    /// names.
    pub fn name(self) -> String {
        match self {
            WidgetKind::Playground => "the playground".into(),
            WidgetKind::CircuitDiagram => "circuit breaker diagram".into(),
            WidgetKind::Histogram => "latency histogram".into(),
            WidgetKind::LessonTable => "the lesson's table".into(),
            WidgetKind::Exercise(n) => format!("exercise {n}"),
            WidgetKind::Jitter => "backoff and jitter".into(),
            WidgetKind::LessonStep => "lesson step".into(),
            WidgetKind::Metastability => "metastability explorer".into(),
            WidgetKind::CompareLibraries => "four libraries, one failure".into(),
        }
    }

    /// The kind a `kind` attribute names.
    pub fn parse(text: &str) -> Option<WidgetKind> {
        let text = text.trim();
        WidgetKind::ALL.into_iter().find(|k| k.key() == text)
    }
}

/// Every kind's attributes besides `kind`, as `docs/embedding.md` lists them: made here from
/// the lists the readers use, so the page cannot drift from the code (a test compares them).
pub fn attributes_table() -> String {
    use super::widget_look::SCALE_RANGE;
    use crate::page::knobs::every_knob;
    use crate::page::permalink::OTHER_KEYS;
    let code = |keys: &[&str]| {
        keys.iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let run_keys: Vec<&str> = OTHER_KEYS
        .iter()
        .copied()
        .chain(every_knob().iter().map(|k| k.key).filter(|k| *k != "seed"))
        .collect();
    let run = "the run's settings (below)".to_string();
    let mut rows = vec![
        "| kind | reads | and |".to_string(),
        "| --- | --- | --- |".to_string(),
    ];
    let look = format!(
        "`theme` (auto, light or dark), `scale` ({} to {}), `heading-level` (2 to 6)",
        SCALE_RANGE.0, SCALE_RANGE.1
    );
    for kind in WidgetKind::ALL {
        let (reads, and) = match kind {
            WidgetKind::Playground | WidgetKind::LessonTable => (run.clone(), look.clone()),
            WidgetKind::CircuitDiagram | WidgetKind::Histogram => (
                format!("{run}; with no `t`, it opens at the run's end"),
                format!("{look}, `chrome` (full, compact or none)"),
            ),
            WidgetKind::Exercise(_) | WidgetKind::Metastability => {
                ("nothing else".to_string(), look.clone())
            }
            WidgetKind::Jitter => (code(&crate::page::jitter::JITTER_KEYS), look.clone()),
            WidgetKind::CompareLibraries => (
                format!("{run}, the scenario every library runs on (with no `preset`, `saturday`)"),
                look.clone(),
            ),
            WidgetKind::LessonStep => (
                "`lesson` (km0, northwind, challenges or zoo), `step` (a step's name or number)"
                    .to_string(),
                look.clone(),
            ),
        };
        rows.push(format!("| `{}` | {reads} | {and} |", kind.key()));
    }
    rows.push(String::new());
    rows.push(format!(
        "The run's settings are the playground's link keys, each with the range its notices give: {}.",
        code(&run_keys)
    ));
    rows.join("\n")
}

/// Attributes an element has for HTML's sake, not ours: passed over in silence.
fn is_html_attribute(key: &str) -> bool {
    matches!(
        key,
        "class" | "id" | "style" | "title" | "hidden" | "lang" | "dir"
    ) || key.starts_with("data-")
        || key.starts_with("aria-")
}

/// A widget as its attributes describe it.
#[derive(Debug, Clone)]
pub struct WidgetSpec {
    /// What to show.
    pub kind: WidgetKind,
    /// The settings (every attribute that is not the kind, the theme or HTML's own).
    pub settings: Vec<(String, String)>,
    /// `theme="dark"` or `"light"`; `None` (`auto`) follows the host page, else the system.
    pub dark: Option<bool>,
    /// Chrome, scale and the host page's background.
    pub look: WidgetLook,
    /// One message per attribute that could not be used, naming it and what it allows.
    pub notices: Vec<String>,
    /// `debug="panic"`: the widget panics when it is played, so a course page (or a test) can
    /// check that one failing widget leaves the others working.
    pub panic_on_play: bool,
}

impl WidgetSpec {
    /// Reads a widget from its attributes as a query string (`kind=...&cooldown=2s`).
    pub fn from_query(query: &str) -> WidgetSpec {
        let (pairs, notices) = parse_query(query);
        WidgetSpec::from_attributes(&pairs, notices)
    }

    /// Reads a widget from its attributes; `notices` are carried over.
    pub fn from_attributes(pairs: &[(String, String)], mut notices: Vec<String>) -> WidgetSpec {
        let mut kind = None;
        let mut dark = None;
        let mut look = WidgetLook::default();
        let mut panic_on_play = false;
        let mut settings = Vec::new();
        for (key, value) in pairs {
            let key = key.trim().to_ascii_lowercase();
            match key.as_str() {
                "kind" => match WidgetKind::parse(value) {
                    Some(k) => kind = Some(k),
                    None => notices.push(format!(
                        "kind: \"{}\" is not a widget (one of {}); showing the circuit diagram.",
                        value.chars().take(40).collect::<String>(),
                        WidgetKind::ALL.map(|k| k.key()).join(", ")
                    )),
                },
                "theme" => match value.trim() {
                    "dark" => dark = Some(true),
                    "light" => dark = Some(false),
                    "" | "auto" => dark = None,
                    other => notices.push(format!(
                        "theme: \"{}\" is not allowed (dark, light or auto); following the host page.",
                        other.chars().take(40).collect::<String>()
                    )),
                },
                k if WidgetLook::KEYS.contains(&k) => notices.extend(look.read(k, value)),
                "debug" => match value.trim() {
                    "panic" => panic_on_play = true,
                    other => notices.push(format!(
                        "debug: \"{}\" is not allowed (panic, to test that a failing widget \
                         stays alone); ignored.",
                        other.chars().take(40).collect::<String>()
                    )),
                },
                k if is_html_attribute(k) => {}
                _ => settings.push((key, value.clone())),
            }
        }
        WidgetSpec {
            kind: kind.unwrap_or(WidgetKind::CircuitDiagram),
            settings,
            dark,
            look,
            notices,
            panic_on_play,
        }
    }

    /// The page state the widget starts from (on [`WIDGET_PRESET`] without a `preset`), and every notice (its own and the settings').
    /// A jitter widget's settings are its own ([`WidgetSpec::jitter`]); its page is the default.
    pub fn page(&self, system_dark: bool) -> (Page, Vec<String>) {
        let (mut page, more) = match self.kind {
            WidgetKind::Jitter => {
                let (page, _) = from_pairs_or(&[], WIDGET_PRESET);
                (page, JitterSettings::from_pairs(&self.settings).1)
            }
            WidgetKind::CompareLibraries => from_pairs_or(&self.settings, Preset::Saturday),
            _ => from_pairs_or(&self.settings, WIDGET_PRESET),
        };
        page.view.dark = self.look.dark(self.dark, system_dark);
        // A diagram or a histogram with no moment asked for opens at the run's end, where it
        // has something to show (at 0 s a histogram is empty until Play).
        let moment_asked = self.settings.iter().any(|(k, _)| k == "t")
            && !more.iter().any(|n| n.starts_with("t:"));
        if !moment_asked
            && matches!(
                self.kind,
                WidgetKind::CircuitDiagram | WidgetKind::Histogram
            )
        {
            let end = page.span();
            page = page.apply(crate::page::action::Action::Seek(end));
        }
        let mut notices = self.notices.clone();
        notices.extend(more);
        (page, notices)
    }

    /// The settings of a jitter widget (defaults in place of values it cannot use).
    pub fn jitter(&self) -> JitterSettings {
        JitterSettings::from_pairs(&self.settings).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widgets_js_sends_each_family_of_kinds_to_its_module() {
        let script = include_str!("../../../../../static/widgets.js");
        for (name, kinds) in [
            ("CHART_KINDS", &WidgetKind::CHARTS[..]),
            ("EXPLORER_KINDS", &WidgetKind::EXPLORERS[..]),
            ("LIBRARY_KINDS", &WidgetKind::LIBRARIES[..]),
            ("LESSON_KINDS", &WidgetKind::LESSONS[..]),
            ("EXERCISE_KINDS", &WidgetKind::EXERCISES[..]),
        ] {
            let listed = script
                .lines()
                .find_map(|l| l.strip_prefix(&format!("const {name} = [")))
                .and_then(|l| l.strip_suffix("];"))
                .unwrap_or_else(|| panic!("widgets.js lists {name} on one line"));
            let keys: Vec<String> = kinds.iter().map(|k| format!("\"{}\"", k.key())).collect();
            assert_eq!(listed, keys.join(", "), "{name}");
        }
    }

    #[test]
    fn the_guide_lists_every_kinds_attributes_as_the_code_reads_them() {
        let guide = include_str!("../../../../../docs/embedding.md");
        let start = guide
            .find("<!-- attributes: start -->")
            .expect("the guide marks where the table starts")
            + "<!-- attributes: start -->".len();
        let end = guide
            .find("<!-- attributes: end -->")
            .expect("and where it ends");
        assert_eq!(
            guide[start..end].trim(),
            attributes_table(),
            "docs/embedding.md's table differs from the code; it should read:\n{}\n",
            attributes_table()
        );
    }

    #[test]
    fn a_view_widget_opens_where_it_shows_something() {
        for kind in ["histogram", "circuit-diagram"] {
            let (page, _) = WidgetSpec::from_query(&format!("kind={kind}&preset=cb")).page(false);
            assert_eq!(
                page.playback.playhead,
                page.span(),
                "{kind} opens at the run's end"
            );
            assert!(!page.playback.playing);
            let (page, _) =
                WidgetSpec::from_query(&format!("kind={kind}&preset=cb&t=3")).page(false);
            assert_eq!(
                page.playback.playhead, 3_000_000,
                "{kind} opens where t says"
            );
        }
        let (page, _) = WidgetSpec::from_query("kind=playground&preset=cb").page(false);
        assert_eq!(
            page.playback.playhead, 0,
            "the playground opens at the start"
        );
    }

    #[test]
    fn every_kind_reads_back_from_its_key() {
        for kind in WidgetKind::ALL {
            assert_eq!(WidgetKind::parse(&kind.key()), Some(kind));
        }
        assert_eq!(WidgetKind::parse("exercise-5"), None);
        assert_eq!(WidgetKind::parse("<b>"), None);
    }

    #[test]
    fn the_example_from_the_readme_gives_a_two_second_cool_down_on_the_cb_preset() {
        let spec = WidgetSpec::from_query("kind=circuit-diagram&preset=cb&cooldown=2s&class=wide");
        assert_eq!(spec.kind, WidgetKind::CircuitDiagram);
        let (page, notices) = spec.page(false);
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(page.settings.preset, Preset::Lesson(Scenario::Cb));
        assert_eq!(
            page.settings.full.first_breaker().unwrap().cooldown,
            2_000_000
        );
        let spec = WidgetSpec::from_query("kind=histogram&preset=cb&cooldown=5s");
        let (page, _) = spec.page(false);
        assert_eq!(
            page.settings.full.first_breaker().unwrap().cooldown,
            5_000_000
        );
    }

    #[test]
    fn a_bad_attribute_is_named_and_the_widget_keeps_its_defaults() {
        let spec = WidgetSpec::from_query("kind=histogram&cooldown=soon&theme=purple&colour=red");
        assert_eq!(spec.kind, WidgetKind::Histogram);
        let (page, notices) = spec.page(true);
        assert!(page.view.dark, "an unknown theme follows the system");
        assert_eq!(notices.len(), 3, "{notices:?}");
        assert!(notices.iter().any(|n| n.contains("theme")));
        assert!(notices.iter().any(|n| n.contains("cooldown")));
        assert!(notices.iter().any(|n| n.contains("colour")));
        assert!(page.runs.a.is_ok());
        let default = Page::new(Preset::Lesson(Scenario::Cb), false);
        assert_eq!(
            page.settings.full.first_stack().unwrap().breaker,
            default.settings.full.first_stack().unwrap().breaker
        );
    }

    #[test]
    fn an_unknown_kind_falls_back_to_the_circuit_diagram_with_a_notice() {
        let spec = WidgetSpec::from_query("kind=%3Cscript%3E");
        assert_eq!(spec.kind, WidgetKind::CircuitDiagram);
        assert_eq!(spec.notices.len(), 1);
        assert!(spec.notices[0].starts_with("kind:"), "{:?}", spec.notices);
    }

    #[test]
    fn look_attributes_are_not_settings_and_auto_follows_the_host_page() {
        use crate::page::widget_look::Chrome;
        let spec = WidgetSpec::from_query(
            "kind=histogram&chrome=none&scale=2&host-background=rgb(253%2C246%2C227)",
        );
        assert!(spec.settings.is_empty(), "{:?}", spec.settings);
        assert_eq!(spec.look.chrome, Chrome::None);
        assert_eq!(spec.look.scale, Some(2.0));
        let (page, notices) = spec.page(true);
        assert!(notices.is_empty(), "{notices:?}");
        assert!(
            !page.view.dark,
            "a cream host page gets the light theme on a dark system"
        );
        let dark_host = WidgetSpec::from_query("theme=auto&host-background=rgb(20%2C20%2C28)");
        assert!(dark_host.page(false).0.view.dark);
        let forced = WidgetSpec::from_query("theme=light&host-background=rgb(0%2C0%2C0)");
        assert!(!forced.page(true).0.view.dark, "an explicit theme wins");
        let bad = WidgetSpec::from_query("chrome=everything&scale=12");
        assert_eq!(bad.notices.len(), 2, "{:?}", bad.notices);
        assert_eq!(bad.look.chrome, Chrome::Compact);
    }

    #[test]
    fn a_jitter_widget_reads_its_own_settings_and_names_bad_ones() {
        let spec = WidgetSpec::from_query("kind=jitter&clients=20&cap=1s&strip=no-backoff");
        assert_eq!(spec.kind, WidgetKind::Jitter);
        let (_, notices) = spec.page(false);
        assert!(notices.is_empty(), "{notices:?}");
        let s = spec.jitter();
        assert_eq!((s.clients, s.cap), (20, 1_000_000));
        let spec = WidgetSpec::from_query("kind=jitter&clients=7&preset=cb");
        let (_, notices) = spec.page(false);
        assert_eq!(notices.len(), 2, "{notices:?}");
        assert!(notices[0].starts_with("clients") && notices[1].starts_with("preset"));
        assert_eq!(spec.jitter(), JitterSettings::default());
    }

    #[test]
    fn html_attributes_are_not_settings() {
        let spec =
            WidgetSpec::from_query("kind=lesson-table&id=w&style=x&data-course=3&aria-label=t");
        assert!(spec.settings.is_empty(), "{:?}", spec.settings);
        assert!(spec.page(false).1.is_empty());
    }
}
