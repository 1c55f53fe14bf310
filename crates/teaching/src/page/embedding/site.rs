//! Where the playground's pages are, for the links between them: the files of `dist/` side by
//! side (`index.html`, `lesson.html`, `exercises.html`), or the single offline file, which
//! holds every page and shows the one its query names (`?lesson=km0`, `?exercises`).

/// The addresses of the playground, the lessons and the exercises, as seen from a page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// The playground's address: `index.html`, a full URL to it, or the offline file.
    playground: String,
    /// All pages are one file, told apart by the query.
    one_file: bool,
}

impl Site {
    /// The pages of `dist/`, with the playground at `playground` (its `index.html`, or a full
    /// URL to it from a course page on another host); the other pages are beside it.
    pub fn files(playground: &str) -> Site {
        Site {
            playground: playground.to_string(),
            one_file: false,
        }
    }

    /// The single offline file, at `file` (its name, or a full URL to it).
    pub fn one_file(file: &str) -> Site {
        Site {
            playground: file.to_string(),
            one_file: true,
        }
    }

    /// The playground.
    pub fn playground(&self) -> &str {
        &self.playground
    }

    /// The playground opened on `query` (a permalink's, without its `?`).
    pub fn playground_with(&self, query: &str) -> String {
        format!("{}?{query}", self.playground)
    }

    /// A lesson's step, `query` being [`StepRef::query`](crate::page::lessons::StepRef::query).
    pub fn lesson(&self, query: &str) -> String {
        if self.one_file {
            format!("{}?{query}", self.playground)
        } else {
            format!("{}lesson.html?{query}", self.folder())
        }
    }

    /// Where a shipped lesson's file is fetched from (`lessons/km0.md` beside the pages), or
    /// `None` in the offline file, which carries the files in itself.
    pub fn lesson_file(&self, file_name: &str) -> Option<String> {
        (!self.one_file).then(|| format!("{}{file_name}", self.folder()))
    }

    /// The exercises.
    pub fn exercises(&self) -> String {
        if self.one_file {
            format!("{}?exercises", self.playground)
        } else {
            format!("{}exercises.html", self.folder())
        }
    }

    /// The folder the pages of `dist/` share, with its trailing `/` (empty when beside).
    fn folder(&self) -> &str {
        let address = self.playground.split(['?', '#']).next().unwrap_or_default();
        match address.rfind('/') {
            Some(slash) => &address[..=slash],
            None => "",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Site;

    #[test]
    fn pages_of_dist_are_beside_the_playground() {
        let here = Site::files("index.html");
        assert_eq!(
            here.lesson_file("lessons/km0.md").as_deref(),
            Some("lessons/km0.md")
        );
        assert_eq!(
            here.lesson("lesson=km0&step=x"),
            "lesson.html?lesson=km0&step=x"
        );
        assert_eq!(here.exercises(), "exercises.html");
        assert_eq!(here.playground_with("preset=cb"), "index.html?preset=cb");
        let far = Site::files("https://example.org/play/index.html");
        assert_eq!(far.exercises(), "https://example.org/play/exercises.html");
        assert_eq!(
            far.lesson_file("lessons/northwind.md").as_deref(),
            Some("https://example.org/play/lessons/northwind.md")
        );
        assert_eq!(
            far.lesson("lesson=northwind&step=y"),
            "https://example.org/play/lesson.html?lesson=northwind&step=y"
        );
        let folder = Site::files("https://example.org/play/");
        assert_eq!(
            folder.exercises(),
            "https://example.org/play/exercises.html"
        );
    }

    #[test]
    fn the_offline_file_holds_every_page() {
        let file = Site::one_file("resilience-playground.html");
        assert_eq!(file.playground(), "resilience-playground.html");
        assert_eq!(
            file.lesson("lesson=km0&step=x"),
            "resilience-playground.html?lesson=km0&step=x"
        );
        assert_eq!(file.exercises(), "resilience-playground.html?exercises");
        assert_eq!(file.lesson_file("lessons/km0.md"), None);
    }
}
