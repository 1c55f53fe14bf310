//! The page's YAML reader (`library_config::yaml`) against yaml-rust2: on the lesson's
//! configuration, on hand-picked texts, and on random configurations written the ways Spring
//! Boot users write them, both read the same values. What it leaves out is refused with the
//! line, never misread.

use proptest::prelude::*;
use resilience_playground::library_config::yaml::{self, Yaml};
use yaml_rust2::{Yaml as Oracle, YamlLoader};

const LESSON: &str = include_str!("fixtures/northwind-resilience4j.yml");

/// yaml-rust2's value in the reader's terms (`None` for what the reader has no word for).
fn converted(value: &Oracle) -> Option<Yaml> {
    Some(match value {
        Oracle::Real(r) => Yaml::Real(r.clone()),
        Oracle::Integer(i) => Yaml::Integer(*i),
        Oracle::String(s) => Yaml::String(s.clone()),
        Oracle::Boolean(b) => Yaml::Boolean(*b),
        Oracle::Array(items) => Yaml::Array(items.iter().map(converted).collect::<Option<_>>()?),
        Oracle::Hash(entries) => Yaml::Hash(
            entries
                .iter()
                .map(|(k, v)| Some((converted(k)?, converted(v)?)))
                .collect::<Option<_>>()?,
        ),
        Oracle::Null => Yaml::Null,
        Oracle::Alias(_) | Oracle::BadValue => return None,
    })
}

fn oracle(text: &str) -> Result<Vec<Yaml>, String> {
    let docs = YamlLoader::load_from_str(text).map_err(|e| e.to_string())?;
    docs.iter()
        .map(converted)
        .collect::<Option<_>>()
        .ok_or_else(|| "an alias or a bad value".to_string())
}

fn assert_same(text: &str) {
    let ours = yaml::load(text).unwrap_or_else(|e| panic!("refused {e}:\n{text}"));
    let theirs = oracle(text).unwrap_or_else(|e| panic!("yaml-rust2 refused {e}:\n{text}"));
    assert_eq!(ours, theirs, "read otherwise than yaml-rust2:\n{text}");
}

#[test]
fn the_lessons_configuration_reads_as_yaml_rust2_reads_it() {
    assert_same(LESSON);
}

#[test]
fn what_spring_boot_users_write_reads_as_yaml_rust2_reads_it() {
    let texts = [
        // Comments, quotes that hold a `#`, and an apostrophe in a plain value.
        "a: 1 # one\n# a line of its own\nb: 'x # y'\nc: \"p # q\"\nd: it's # c\n",
        // A sequence at its key's indentation, and indented.
        "exceptions:\n- a.B\n- c.D\nother:\n    - 1\n    - 2\n",
        // Mappings inside entries, over several lines.
        "items:\n  - name: x\n    size: 3\n  - name: y\n    list:\n    - p\n",
        // Flow collections, also over lines and nested.
        "a: [x, 'y, z', \"w\"]\nb: {k: 1, l: [2, 3]}\nc: [\n  one,\n  two,\n]\nd: []\n",
        // Every type a plain scalar takes.
        "n: ~\nm: null\ne:\nt: True\nf: FALSE\ni: -42\nh: 0x1F\no: 0o17\np: +5\nr: 0.5\ns: 1e3\ninf: .inf\nd: 2s\n",
        // Quoted keys, a numeric key, escapes.
        "'a b': 1\n\"c\\td\": \"\\u00e9\\n\"\n7: seven\nq: 'it''s'\n",
        // Documents.
        "---\na: 1\n---\nb: 2\n...\n",
        "%YAML 1.2\n---\nx: y\n",
        // Nested sequences, and `- -`.
        "- - a\n  - b\n-\n  - c\n- - - d\n",
        // Deeper indentation steps, a value that looks like a URL.
        "spring:\n    url: http://127.0.0.1:8080/x\n    time: 10:30\n",
        // Empty entries.
        "a:\n  -\n  - ~\nb:\n",
    ];
    for text in texts {
        assert_same(text);
    }
}

#[test]
fn what_the_reader_leaves_out_is_refused_on_its_line() {
    let cases = [
        ("a: &base 1\nb: *base\n", 1, "anchors"),
        ("a: !!str 1\n", 1, "tags"),
        ("a: |\n  text\n", 1, "block scalars"),
        ("a:\n\tb: 1\n", 2, "tab"),
        ("a: 1\nb: 2\na: 3\n", 3, "`a` appears twice"),
        ("a: 'open\n  close'\n", 1, "close on its own line"),
        ("a: plain\n  continued\n", 2, "continued"),
        ("a:\n    b: 1\n  c: 2\n", 3, "bad indentation"),
        ("a: b: c\n", 1, "`: ` inside a value"),
        ("? k\n: v\n", 1, "complex keys"),
        ("a: [1, 2\n", 1, "never closed"),
        ("a: \"\\q\"\n", 1, "unknown escape"),
        ("a: 1\n- b\n", 2, "sequence entry"),
    ];
    for (text, line, words) in cases {
        let error = yaml::load(text).expect_err(text);
        assert_eq!(error.line, line, "{text}: {error}");
        assert!(error.to_string().contains(words), "{text}: {error}");
    }
}

/// A node of a random configuration, its scalars as written.
#[derive(Debug, Clone)]
enum Node {
    Scalar(&'static str),
    Flow(Vec<&'static str>),
    Map(Vec<(&'static str, Node)>),
    Seq(Vec<Node>),
}

const KEYS: &[&str] = &[
    "max-attempts",
    "waitDuration",
    "sliding_window_size",
    "instances",
    "inventoryReservation",
    "'quoted key'",
    "\"double key\"",
    "12",
    "true",
    "com.example.Key",
];

/// Values as a block context takes them (a trailing comment included).
const VALUES: &[&str] = &[
    "2s",
    "200ms",
    "3",
    "-7",
    "0.5",
    "1e3",
    "true",
    "False",
    "True",
    "~",
    "null",
    "PT2S",
    "+5",
    "0x1F",
    "com.example.TransientInventoryException",
    "a b c",
    "it's",
    "'quoted # not a comment'",
    "\"escaped \\\" quote\"",
    "x # a trailing comment",
    "http://127.0.0.1:8080/path",
    "''",
];

/// Values inside `[...]`.
const FLOW_VALUES: &[&str] = &[
    "a", "2s", "10", "0.25", "'x, y'", "\"q\"", "com.x.E", "null",
];

fn node() -> impl Strategy<Value = Node> {
    let leaf = prop_oneof![
        4 => prop::sample::select(VALUES).prop_map(Node::Scalar),
        1 => prop::collection::vec(prop::sample::select(FLOW_VALUES), 0..4).prop_map(Node::Flow),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            (
                prop::sample::subsequence(KEYS, 1..4),
                prop::collection::vec(inner.clone(), 4)
            )
                .prop_map(|(keys, values)| Node::Map(keys.into_iter().zip(values).collect())),
            prop::collection::vec(inner, 1..4).prop_map(Node::Seq),
        ]
    })
}

/// How a configuration is laid out: the indentation step, and whether a sequence under a key
/// is indented or sits at the key's column.
#[derive(Debug, Clone, Copy)]
struct Layout {
    step: usize,
    indent_sequences: bool,
}

fn write(node: &Node, indent: usize, layout: Layout, out: &mut String) {
    let pad = " ".repeat(indent);
    match node {
        Node::Scalar(s) => out.push_str(&format!("{pad}{s}\n")),
        Node::Flow(items) => out.push_str(&format!("{pad}[{}]\n", items.join(", "))),
        Node::Map(entries) => {
            for (key, value) in entries {
                match value {
                    Node::Scalar(s) => out.push_str(&format!("{pad}{key}: {s}\n")),
                    Node::Flow(items) => {
                        out.push_str(&format!("{pad}{key}: [{}]\n", items.join(", ")))
                    }
                    Node::Map(_) => {
                        out.push_str(&format!("{pad}{key}:\n"));
                        write(value, indent + layout.step, layout, out);
                    }
                    Node::Seq(_) => {
                        out.push_str(&format!("{pad}{key}:\n"));
                        let inner = if layout.indent_sequences {
                            layout.step
                        } else {
                            0
                        };
                        write(value, indent + inner, layout, out);
                    }
                }
            }
        }
        Node::Seq(items) => {
            for item in items {
                // The item written two columns in, its first line's indentation then given
                // to the dash: `- key: value` with the rest of the mapping under `key`.
                let mut inner = String::new();
                write(item, indent + 2, layout, &mut inner);
                out.push_str(&format!("{pad}- {}", &inner[indent + 2..]));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn random_configurations_read_as_yaml_rust2_reads_them(
        root in node(),
        step in 2usize..=4,
        indent_sequences in any::<bool>(),
    ) {
        let mut text = String::new();
        write(&root, 0, Layout { step, indent_sequences }, &mut text);
        let theirs = oracle(&text);
        prop_assume!(theirs.is_ok(), "yaml-rust2 refused the generated text");
        let ours = yaml::load(&text);
        prop_assert_eq!(ours.map_err(|e| e.to_string()), theirs, "{}", text);
    }

    /// Text made of YAML's own punctuation: never a panic, and what both read is read alike.
    #[test]
    fn yaml_punctuation_never_panics_and_never_misreads(
        text in "[a-c1 :\\-#'\"\\[\\]{},\n~.]{0,60}",
    ) {
        if let (Ok(ours), Ok(theirs)) = (yaml::load(&text), oracle(&text)) {
            prop_assert_eq!(ours, theirs, "{:?}", text);
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        let _ = yaml::load(&text);
    }
}
