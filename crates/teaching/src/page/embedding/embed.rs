//! "Embed this": the snippets that put exactly what is on screen into a course page, as the
//! custom element (`widgets.js`) and as an iframe (`embed.html`, sized by `iframe-host.js`),
//! each with a title, a width of 100% with a maximum, and the attributes of what is shown.

use super::widget::WidgetKind;

/// The widest an embed grows on a wide course page, in CSS px.
const MOST_WIDTH: u32 = 1200;

/// An iframe's height before its content has been measured, in CSS px.
const FIRST_HEIGHT: u32 = 720;

/// The range a measured height is written within, in CSS px (`iframe-host.js` takes up to
/// 100,000; a snippet past 20,000 would be a mistake to paste).
const LEAST_HEIGHT: u32 = 100;
const MOST_HEIGHT: u32 = 20_000;

/// What is on screen, as a widget: its kind and its attributes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Embed {
    /// The kind.
    pub kind: WidgetKind,
    /// Its attributes besides `kind`, in order.
    pub attributes: Vec<(String, String)>,
}

impl Embed {
    /// A widget of `kind` with the attributes of `query` (a link's query string, without `?`;
    /// `projector` is left out, the course page being no stage, and so is `t=0.0`).
    pub fn new(kind: WidgetKind, query: &str) -> Embed {
        let attributes = crate::page::permalink::parse_query(query)
            .0
            .into_iter()
            .filter(|(key, value)| {
                // The start is every widget's own default; a view widget opens at the run's
                // end instead, where it shows something.
                let at_start = key == "t" && value.parse::<f64>() == Ok(0.0);
                key != "projector" && key != "kind" && !at_start
            })
            .collect();
        Embed { kind, attributes }
    }

    /// What a reader hears the embed called (its `title`).
    pub fn title(&self) -> String {
        let what = match self.kind {
            WidgetKind::LessonStep => {
                let step = self.value("step").unwrap_or("first");
                let lesson = self.value("lesson").unwrap_or("km0");
                format!("lesson {lesson}, step {step}")
            }
            kind => kind.name(),
        };
        format!("Resilience Playground: {what}")
    }

    fn value(&self, key: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The custom element, with the script that defines it, from the playground at `base`
    /// (its folder's URL, ending in `/`).
    pub fn element(&self, base: &str) -> String {
        let mut attributes = format!("kind=\"{}\"", html_text(&self.kind.key()));
        for (k, v) in &self.attributes {
            attributes.push_str(&format!(" {}=\"{}\"", html_text(k), html_text(v)));
        }
        format!(
            "<script type=\"module\" src=\"{}widgets.js\"></script>\n<resilience-widget {attributes} title=\"{}\">{}</resilience-widget>",
            html_text(base),
            html_text(&self.title()),
            html_text(&fallback(base))
        )
    }

    /// The page an iframe shows: `embed.html` with the attributes as its query.
    pub fn frame_url(&self, base: &str) -> String {
        let mut pairs = vec![("kind".to_string(), self.kind.key())];
        pairs.extend(self.attributes.iter().cloned());
        let query = serde_urlencoded::to_string(&pairs).unwrap_or_default();
        format!("{base}embed.html?{query}")
    }

    /// The iframe, and the script that sizes it to its content. Its height is `measured`, the
    /// content's height seen in a preview, when known: a course platform that keeps no script
    /// (Canvas) leaves the iframe at the height written here.
    pub fn iframe(&self, base: &str, measured: Option<u32>) -> String {
        let height = measured
            .map(|h| h.clamp(LEAST_HEIGHT, MOST_HEIGHT))
            .unwrap_or(FIRST_HEIGHT);
        format!(
            "<iframe src=\"{}\" title=\"{}\" loading=\"lazy\"\n        style=\"width: 100%; max-width: {MOST_WIDTH}px; height: {height}px; border: 0\"></iframe>\n<script src=\"{}iframe-host.js\" defer></script>",
            html_text(&self.frame_url(base)),
            html_text(&self.title()),
            html_text(base)
        )
    }
}

/// What a widget's element says until its script replaces it, so that a page that cannot load
/// the script (another origin without permission, scripts off) shows why instead of a blank.
pub fn fallback(base: &str) -> String {
    format!(
        "The Resilience Playground widget appears here once its script has loaded. If this text \
         stays, this page could not load it from {base}: that host must send \
         Access-Control-Allow-Origin for this page, and scripts must be on."
    )
}

/// The folder of the page at `href` (with its trailing `/`), where `widgets.js` and
/// `embed.html` are.
pub fn folder_of(href: &str) -> String {
    let page = href.split(['?', '#']).next().unwrap_or_default();
    match page.rfind('/') {
        Some(slash) => page[..=slash].to_string(),
        None => String::new(),
    }
}

/// `text` safe inside an HTML attribute's double quotes.
fn html_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::widget::WidgetSpec;

    const BASE: &str = "https://class.example/playground/";

    #[test]
    fn the_element_carries_the_kind_the_settings_and_a_title() {
        let embed = Embed::new(
            WidgetKind::Histogram,
            "preset=cb&timeout=0.1&t=12.0&projector=on",
        );
        assert_eq!(
            embed.element(BASE),
            "<script type=\"module\" src=\"https://class.example/playground/widgets.js\"></script>\n\
             <resilience-widget kind=\"histogram\" preset=\"cb\" timeout=\"0.1\" t=\"12.0\" \
             title=\"Resilience Playground: latency histogram\">The Resilience Playground widget \
             appears here once its script has loaded. If this text stays, this page could not load \
             it from https://class.example/playground/: that host must send \
             Access-Control-Allow-Origin for this page, and scripts must be on.</resilience-widget>"
        );
    }

    #[test]
    fn the_iframe_opens_the_same_widget_and_sizes_itself() {
        let embed = Embed::new(WidgetKind::LessonStep, "lesson=km0&step=timeout");
        let iframe = embed.iframe(BASE, None);
        assert!(iframe.starts_with(
            "<iframe src=\"https://class.example/playground/embed.html?kind=lesson-step&amp;lesson=km0&amp;step=timeout\" \
             title=\"Resilience Playground: lesson km0, step timeout\""
        ), "{iframe}");
        assert!(
            iframe.contains("width: 100%; max-width: 1200px"),
            "{iframe}"
        );
        assert!(iframe.ends_with(
            "<script src=\"https://class.example/playground/iframe-host.js\" defer></script>"
        ));
        // What the iframe's page reads is the widget the element describes.
        let query = embed.frame_url(BASE).split_once('?').unwrap().1.to_string();
        let spec = WidgetSpec::from_query(&query);
        assert_eq!(spec.kind, WidgetKind::LessonStep);
        assert!(spec.notices.is_empty(), "{:?}", spec.notices);
    }

    #[test]
    fn the_iframe_asks_for_the_height_its_content_was_measured_at() {
        let embed = Embed::new(WidgetKind::Histogram, "preset=cb");
        assert!(embed.iframe(BASE, None).contains("height: 720px;"));
        assert!(embed.iframe(BASE, Some(1153)).contains("height: 1153px;"));
        assert!(embed.iframe(BASE, Some(0)).contains("height: 100px;"));
        assert!(embed
            .iframe(BASE, Some(u32::MAX))
            .contains("height: 20000px;"));
    }

    #[test]
    fn the_start_is_left_to_the_widget() {
        let embed = Embed::new(WidgetKind::Histogram, "preset=cb&t=0.0");
        assert_eq!(
            embed.attributes,
            vec![("preset".to_string(), "cb".to_string())]
        );
    }

    #[test]
    fn nothing_in_a_value_breaks_out_of_its_attribute() {
        let embed = Embed::new(WidgetKind::Playground, "preset=%22%3E%3Cscript%3E&x=a%26b");
        let element = embed.element(BASE);
        assert!(
            element.contains("preset=\"&quot;&gt;&lt;script&gt;\""),
            "{element}"
        );
        assert!(element.contains("x=\"a&amp;b\""), "{element}");
        assert!(!embed.iframe(BASE, None).contains("<script>"));
    }

    #[test]
    fn the_folder_is_where_the_page_is() {
        assert_eq!(
            folder_of("https://class.example/p/index.html?preset=cb"),
            "https://class.example/p/"
        );
        assert_eq!(
            folder_of("https://class.example/p/"),
            "https://class.example/p/"
        );
    }
}
