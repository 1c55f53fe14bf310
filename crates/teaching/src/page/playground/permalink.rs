//! Settings as `key=value` pairs: the permalink's query string, and the attributes of an
//! embedded widget. Values use the CLI's units (seconds, or an `ms` suffix). A bad value never
//! stops the page: it is reported in a notice naming the key and its range, and the default
//! stays.

use super::action::Action;
use super::knobs::{every_knob, knob, switched_on_by, Knob, Pattern, KNOBS};
use super::playback::Playback;
use super::playback::SPEEDS;
use super::settings::Settings;
use super::settings::TABLE_WINDOW_RANGE;
use super::state::{changes_settings, Page};
use super::view::View;
use crate::page::latency::LatencyKind;
use crate::page::numbers::readable_range;
use crate::resilience::ParamError;
use crate::sim::model::SimConfig;
use crate::sim::params::Value;
use crate::sim::pick::Pick;
use crate::sim::scenario::Preset;
use crate::sim::trace::BUCKET;

/// Keys a permalink or widget may carry besides the knobs.
pub const OTHER_KEYS: [&str; 10] = [
    "preset",
    "seed",
    "patterns",
    "t",
    "speed",
    "latency",
    "table_window",
    "projector",
    "ab",
    "trace",
];

/// Longest piece of a bad value quoted back in a notice.
const QUOTE: usize = 40;

fn quote(value: &str) -> String {
    let mut q: String = value.chars().take(QUOTE).collect();
    if value.chars().count() > QUOTE {
        q.push('…');
    }
    q
}

/// The notice for a setting that cannot be used: names it, quotes the value, says what it allows.
pub(crate) fn bad(key: &str, value: &str, range: &str) -> String {
    format!(
        "{key}: \"{}\" is not allowed ({}); using the default.",
        quote(value),
        readable_range(range)
    )
}

/// The playground restored from `pairs` (opening on [`Preset::OPENING`] when they name no
/// preset), with one notice per value it could not use.
pub fn from_pairs(pairs: &[(String, String)]) -> (Page, Vec<String>) {
    from_pairs_or(pairs, Preset::OPENING)
}

/// A page restored from `pairs`, on `default` when they name no preset (or a bad one), with
/// one notice per value it could not use.
pub fn from_pairs_or(pairs: &[(String, String)], default: Preset) -> (Page, Vec<String>) {
    let mut notices = Vec::new();
    // With an explicit `patterns` list, a key never switches its pattern on by itself.
    let listed = pairs.iter().any(|(k, _)| k == "patterns");
    let preset = match pairs.iter().find(|(k, _)| k == "preset") {
        None => default,
        Some((_, v)) => Preset::parse(v.trim()).unwrap_or_else(|| {
            let why = check_pair("preset", v).err().unwrap_or_default();
            notices.push(format!("{why}; using the default."));
            default
        }),
    };
    let mut settings = Settings::new(preset);
    let mut actions = Vec::new();
    // An explicit `patterns` list says which patterns are on, after the keys that would switch
    // one on (a link the page wrote lists them and every knob).
    let mut pattern_actions = Vec::new();
    let mut seek = None;
    let mut ab = Vec::new();
    for (key, value) in pairs {
        let v = value.trim();
        match key.as_str() {
            "preset" => {}
            "seed" => match v.parse::<u64>() {
                Ok(seed) => actions.push(Action::SetSeed(seed)),
                Err(_) => notices.push(bad(
                    "seed",
                    v,
                    "a whole number, 0 or more, of at most 20 digits",
                )),
            },
            "patterns" if v.is_empty() => notices.push(bad(
                "patterns",
                v,
                "a comma-separated list of patterns, or none",
            )),
            "patterns" => {
                if let Some(on) = read_patterns("patterns", v, &mut notices) {
                    pattern_actions.clear();
                    for p in Pattern::SWITCHES {
                        pattern_actions.push(Action::SetPattern(p, on.contains(&p)));
                    }
                }
            }
            "ab" => ab.push(v.to_string()),
            "trace" => match Pick::parse(v) {
                Ok(pick) => actions.push(Action::Follow(Some(pick))),
                Err(_) => notices.push(bad("trace", v, Pick::ALLOWED)),
            },
            "t" => match v.parse::<f64>() {
                Ok(s) if s.is_finite() && s >= 0.0 => {
                    seek = Some(((s * 1e6).round() as u64, v.to_string()))
                }
                _ => notices.push(bad("t", v, "seconds, 0 or more")),
            },
            "speed" => match v.parse::<f64>() {
                Ok(s) if SPEEDS.contains(&s) => actions.push(Action::SetSpeed(s)),
                _ => notices.push(bad("speed", v, "one of 0.25, 0.5, 1, 2, 5, 10, 20")),
            },
            "latency" => match v {
                "service" => actions.push(Action::SetLatency(LatencyKind::Service)),
                "e2e" => actions.push(Action::SetLatency(LatencyKind::EndToEnd)),
                _ => notices.push(bad("latency", v, "service or e2e")),
            },
            "table_window" => match v.parse::<f64>() {
                Ok(s) if (TABLE_WINDOW_RANGE.0..=TABLE_WINDOW_RANGE.1).contains(&s) => {
                    actions.push(Action::SetTableWindow(s))
                }
                _ => notices.push(bad(
                    "table_window",
                    v,
                    &format!("{}..={} s", TABLE_WINDOW_RANGE.0, TABLE_WINDOW_RANGE.1),
                )),
            },
            "projector" => match v {
                "1" | "true" | "on" => actions.push(Action::SetProjector(true)),
                "0" | "false" | "off" => actions.push(Action::SetProjector(false)),
                _ => notices.push(bad("projector", v, "on or off")),
            },
            other => match knob(other) {
                Some(k) => {
                    // The CLI's rules and range: a value past the slider's end is taken as it
                    // is, so a link never changes what it says without a word.
                    match read_knob(k, &settings.full, v) {
                        // A value the preset already has is left alone (a count window of 20
                        // reads as 20 and must not become 20 s), unless it switches on its
                        // pattern, as `--set` would.
                        Ok((_, written))
                            if k.read(&written) == k.read(&settings.full)
                                && (listed
                                    || switched_on_by(k.key)
                                        .is_none_or(|p| settings.patterns.get(p))) => {}
                        Ok((value, _)) => actions.push(Action::SetParam(k.key, value)),
                        Err(e) => notices.push(bad(e.field, v, &e.range)),
                    }
                }
                None => notices.extend(check_pair(other, v).err()),
            },
        }
    }
    actions.extend(pattern_actions);
    // The settings first, without a run; then the runs, simulated once; then the view.
    let (for_settings, for_view): (Vec<Action>, Vec<Action>) =
        actions.into_iter().partition(changes_settings);
    for a in for_settings {
        let mut notice = None;
        settings.apply(a, &mut notice);
        notices.extend(notice);
    }
    // B after A: its change is on A's settings.
    read_ab(&mut settings, &ab, &mut notices);
    let mut page = Page::of(settings, false);
    for a in for_view {
        page = page.apply(a);
    }
    // Seek last, once the run it seeks in exists; a time past its end is refused, not clamped.
    if let Some((at, text)) = seek {
        if at <= page.span() {
            page = page.apply(Action::Seek(at));
        } else {
            let end = page.span() as f64 / 1e6;
            notices.push(bad(
                "t",
                &text,
                &format!("seconds, 0 to the run's end at {end}"),
            ));
        }
    }
    (page, notices)
}

/// Whether a link, a widget or a lesson's `@run` may carry `key=value`: a key it knows, a
/// preset that exists, a parameter's value in its row's range, the patterns and A/B's change
/// by their names. The message names the key and what it takes.
pub fn check_pair(key: &str, value: &str) -> Result<(), String> {
    let presets = || {
        Preset::ALL
            .iter()
            .map(|p| p.key())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let value = value.trim();
    match key {
        "preset" => Preset::parse(value).map(|_| ()).ok_or_else(|| {
            let presets = presets();
            format!(
                "preset: \"{}\" is not allowed (one of {presets})",
                quote(value)
            )
        }),
        "patterns" => {
            let mut notices = Vec::new();
            read_patterns(key, value, &mut notices);
            notices.first().map_or(Ok(()), |n| Err(n.clone()))
        }
        "ab" => match value.split_once('=') {
            None if value == "on" || value == "off" => Ok(()),
            Some((inner, v)) if inner.trim() != "ab" => {
                check_pair(inner.trim(), v).map_err(|e| format!("ab={}: {e}", quote(value)))
            }
            _ => Err(bad("ab", value, &ab_range())),
        },
        other if OTHER_KEYS.contains(&other) => Ok(()),
        other => match crate::sim::params::param(other) {
            Some(row) => row.parse(value).map(|_| ()).map_err(|e| {
                format!(
                    "{}: \"{}\" is not allowed ({})",
                    e.field,
                    quote(value),
                    readable_range(&e.range)
                )
            }),
            None => Err(format!(
                "`{}` is not a setting (`cascade --help` lists the keys; links, widgets and \
                 lessons take the same ones){}",
                quote(other),
                nearest_key(other).map_or(String::new(), |k| format!("; did you mean `{k}`?"))
            )),
        },
    }
}

/// The key closest to a mistyped one (at most two letters off), if any.
fn nearest_key(key: &str) -> Option<&'static str> {
    fn distance(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut diagonal = row[0];
            row[0] = i + 1;
            for (j, cb) in b.iter().enumerate() {
                let above = row[j + 1];
                row[j + 1] = (above + 1)
                    .min(row[j] + 1)
                    .min(diagonal + usize::from(ca != *cb));
                diagonal = above;
            }
        }
        row[b.len()]
    }
    crate::sim::params::SET_KEYS
        .iter()
        .chain(OTHER_KEYS.iter())
        .map(|k| (distance(key, k), *k))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, k)| k)
}

/// The patterns a `patterns` list names (`key` is the setting it came from, for the
/// notices); `None` when it names none that exist, so the scenario keeps its own and its name
/// on the page stays true.
fn read_patterns(key: &str, v: &str, notices: &mut Vec<String>) -> Option<Vec<Pattern>> {
    if v.is_empty() {
        notices.push(bad(key, v, "a comma-separated list of patterns, or none"));
        return None;
    }
    let mut on = Vec::new();
    let mut unknown = Vec::new();
    for name in v
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty() && *n != "none")
    {
        match Pattern::SWITCHES.iter().find(|p| p.key() == name) {
            Some(p) => on.push(*p),
            None => unknown.push(name),
        }
    }
    let keep = !unknown.is_empty() && on.is_empty();
    let names: Vec<&str> = Pattern::SWITCHES.iter().map(|p| p.key()).collect();
    for name in unknown {
        notices.push(format!(
            "{key}: \"{}\" is not a pattern (a comma-separated list of {}, or none); {}",
            quote(name),
            names.join(", "),
            if keep {
                "no pattern is named, so the scenario keeps its own."
            } else {
                "it is left out."
            }
        ));
    }
    (!keep).then_some(on)
}

/// Knob `k`'s value in `text` (its row's one parse of a link's text), and `full` with it
/// written; or why the row refuses it.
pub(crate) fn read_knob(
    k: &Knob,
    full: &SimConfig,
    text: &str,
) -> Result<(Value, SimConfig), ParamError> {
    let row = k
        .param()
        .ok_or_else(|| ParamError::new(k.key, "a parameter of the table", text.to_string()))?;
    let value = row.parse(text)?;
    let mut written = full.clone();
    row.set(&mut written, value)?;
    Ok((value, written))
}

/// What an `ab` value allows, for its notices.
fn ab_range() -> String {
    format!(
        "on, patterns=LIST, or KEY=VALUE with KEY any key a link takes ({} and more)",
        KNOBS
            .iter()
            .take(6)
            .map(|k| k.key)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// `settings` with A/B on and B's change read from the `ab` values (`on`, `patterns=LIST`,
/// `KEY=VALUE`), when there are any; a value it cannot use is named in `notices`, and values
/// that are all unusable leave A/B off (a refused value never reaches the run).
fn read_ab(settings: &mut Settings, values: &[String], notices: &mut Vec<String>) {
    let wanted: Vec<&String> = values.iter().filter(|v| v.as_str() != "off").collect();
    if wanted.is_empty() {
        return;
    }
    let without = settings.clone();
    settings.apply(Action::SetAb(true), &mut None);
    let mut used = false;
    for v in wanted {
        let mut actions = Vec::new();
        match v.split_once('=') {
            None if v == "on" => used = true,
            Some(("patterns", list)) => {
                let b_on = settings.b().map_or(settings.patterns, |(_, on)| on);
                if let Some(on) = read_patterns("ab", list.trim(), notices) {
                    used = true;
                    for p in Pattern::SWITCHES
                        .into_iter()
                        .filter(|p| on.contains(p) != b_on.get(*p))
                    {
                        actions.push(Action::SetPattern(p, on.contains(&p)));
                    }
                }
            }
            Some((key, value)) => match knob(key.trim()) {
                Some(k) => match read_knob(k, &settings.full, value.trim()) {
                    Ok((value, _)) => {
                        used = true;
                        actions.push(Action::SetParam(k.key, value))
                    }
                    Err(e) => notices.push(bad("ab", v, &format!("{}: {}", e.field, e.range))),
                },
                None => notices.push(bad("ab", v, &ab_range())),
            },
            None => notices.push(bad("ab", v, &ab_range())),
        }
        for a in actions {
            let mut notice = None;
            settings.apply(a, &mut notice);
            notices.extend(notice);
        }
    }
    if !used {
        *settings = without;
    }
}

/// Parses a query string (`a=1&b=2`, with or without the leading `?`) into pairs; a query that
/// cannot be decoded gives no pairs and a notice.
pub fn parse_query(query: &str) -> (Vec<(String, String)>, Vec<String>) {
    match serde_urlencoded::from_str::<Vec<(String, String)>>(query.trim_start_matches('?')) {
        Ok(pairs) => (pairs, Vec::new()),
        Err(e) => (
            Vec::new(),
            vec![format!(
                "the link's settings could not be read ({e}); using the defaults."
            )],
        ),
    }
}

/// The patterns that are on as a `patterns` list (`none` for none).
fn pattern_list(patterns: super::knobs::Patterns) -> String {
    let on: Vec<&str> = Pattern::SWITCHES
        .iter()
        .filter(|p| patterns.get(**p))
        .map(|p| p.key())
        .collect();
    if on.is_empty() {
        "none".into()
    } else {
        on.join(",")
    }
}

/// What a link says of the settings, as query text: written once per change of the settings,
/// not on every frame (see [`query_with`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SettingsText {
    /// Preset, seed, patterns and every knob.
    run: String,
    /// The lesson table's window.
    table: String,
    /// A/B's change, when it is on.
    ab: String,
    /// The followed request, when there is one.
    trace: String,
}

fn encode(pairs: &[(&str, String)]) -> String {
    serde_urlencoded::to_string(pairs).unwrap_or_default()
}

/// The settings' part of a link.
pub fn settings_text(settings: &Settings) -> SettingsText {
    let mut run: Vec<(&str, String)> = vec![
        ("preset", settings.preset.key().into()),
        ("seed", settings.full.run.seed.to_string()),
        ("patterns", pattern_list(settings.patterns)),
    ];
    for k in KNOBS {
        run.push((k.key, k.link_text(&settings.full)));
    }
    // Keys the panel does not show, where they differ from the preset (a lesson's
    // `sidecar_retries=2`): the link gives the same run.
    let opened = Settings::new(settings.preset);
    for k in &every_knob()[KNOBS.len()..] {
        let text = k.link_text(&settings.full);
        if k.key != "seed" && text != k.link_text(&opened.full) {
            run.push((k.key, text));
        }
    }
    let mut ab = Vec::new();
    if let (Some(c), Some((_, b_on))) = (&settings.ab, settings.b()) {
        if c.change.is_empty() {
            ab.push(("ab", "on".to_string()));
        }
        if c.change.pattern.is_some() {
            ab.push(("ab", format!("patterns={}", pattern_list(b_on))));
        }
        for (key, value) in &c.change.knobs {
            if let Some(row) = knob(key).and_then(|k| k.param()) {
                ab.push(("ab", format!("{key}={}", row.text(*value))));
            }
        }
    }
    SettingsText {
        run: encode(&run),
        table: encode(&[("table_window", settings.table_window.to_string())]),
        ab: encode(&ab),
        trace: settings
            .trace
            .map_or(String::new(), |p| encode(&[("trace", p.key())])),
    }
}

/// A link: the settings' text with the playhead, the speed and the view's keys.
pub fn query_with(text: &SettingsText, playback: &Playback, view: &View) -> String {
    let tenths = playback.playhead / BUCKET;
    let moment = [
        ("t", format!("{}.{}", tenths / 10, tenths % 10)),
        ("speed", playback.speed.to_string()),
        (
            "latency",
            match view.latency {
                LatencyKind::Service => "service".into(),
                LatencyKind::EndToEnd => "e2e".into(),
            },
        ),
    ];
    let projector = if view.projector {
        encode(&[("projector", "on".to_string())])
    } else {
        String::new()
    };
    [
        text.run.as_str(),
        &encode(&moment),
        &text.table,
        &projector,
        &text.ab,
        &text.trace,
    ]
    .into_iter()
    .filter(|part| !part.is_empty())
    .collect::<Vec<_>>()
    .join("&")
}

/// The page's settings as a query string (without `?`): enough to rebuild the identical run.
pub fn to_query(page: &Page) -> String {
    query_with(&settings_text(&page.settings), &page.playback, &page.view)
}

/// The shortest link to the same run (without `?`): the preset, then only what differs from
/// the preset as it opens (seed, patterns, knobs, the table's window), A/B's change, the
/// followed request and the moment; no projector. For a code a phone scans, where every
/// character makes the code denser.
pub fn compact_query(page: &Page) -> String {
    let text = settings_text(&page.settings);
    compact_with(
        &compact_settings(&page.settings, &text),
        &page.playback,
        &page.view,
    )
}

/// What the settings alone decide of [`compact_query`]: worked out when they change, not on
/// every playback frame.
#[derive(Debug, Clone, PartialEq)]
pub struct CompactSettings {
    /// The preset and what differs from it as it opens.
    run: String,
    /// A/B's change and the followed request.
    rest: [String; 2],
}

/// The settings' part of [`compact_query`], with A/B's change and the followed request taken
/// from the link's settings text (`text`, [`settings_text`] of the same settings).
pub fn compact_settings(settings: &Settings, text: &SettingsText) -> CompactSettings {
    let opened = Settings::new(settings.preset);
    let mut run: Vec<(&str, String)> = vec![("preset", settings.preset.key().into())];
    if settings.full.run.seed != opened.full.run.seed {
        run.push(("seed", settings.full.run.seed.to_string()));
    }
    if settings.patterns != opened.patterns {
        run.push(("patterns", pattern_list(settings.patterns)));
    }
    for k in every_knob().iter().filter(|k| k.key != "seed") {
        let text = k.link_text(&settings.full);
        if text != k.link_text(&opened.full) {
            run.push((k.key, text));
        }
    }
    if settings.table_window != opened.table_window {
        run.push(("table_window", settings.table_window.to_string()));
    }
    CompactSettings {
        run: encode(&run),
        rest: [text.ab.clone(), text.trace.clone()],
    }
}

/// [`compact_query`] from its settings' part and the moment.
pub fn compact_with(settings: &CompactSettings, playback: &Playback, view: &View) -> String {
    let tenths = playback.playhead / BUCKET;
    let mut moment = vec![("t", format!("{}.{}", tenths / 10, tenths % 10))];
    if playback.speed != Playback::default().speed {
        moment.push(("speed", playback.speed.to_string()));
    }
    if view.latency != LatencyKind::Service {
        moment.push(("latency", "e2e".into()));
    }
    [settings.run.as_str(), &encode(&moment)]
        .into_iter()
        .chain(settings.rest.iter().map(String::as_str))
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::action::Action;
    use crate::sim::scenario::Scenario;

    #[test]
    fn the_compact_link_rebuilds_the_same_run_with_only_what_changed() {
        let pages = [
            Page::default(),
            Page::default()
                .apply(Action::PickPreset(Preset::Lesson(Scenario::Cb)))
                .apply(Action::SetKnob("timeout", 100.0))
                .apply(Action::SetKnob("cooldown", 3000.0))
                .apply(Action::Seek(4_000_000)),
            Page::default()
                .apply(Action::PickPreset(Preset::Lesson(Scenario::Bulkhead)))
                .apply(Action::SetSeed(42))
                .apply(Action::SetPattern(Pattern::TIMEOUT, false))
                .apply(Action::SetSpeed(5.0))
                .apply(Action::SetLatency(LatencyKind::EndToEnd))
                .apply(Action::SetProjector(true)),
        ];
        for page in pages {
            let compact = compact_query(&page);
            let (back, notices) = from_pairs(&pairs(&compact));
            assert!(notices.is_empty(), "{compact}: {notices:?}");
            let mut expected = page.clone();
            expected.view.projector = false;
            assert_eq!(to_query(&back), to_query(&expected), "{compact}");
            assert!(compact.len() < to_query(&page).len() / 2, "{compact}");
            assert!(!compact.contains("projector"), "{compact}");
        }
        let changed = compact_query(
            &Page::default()
                .apply(Action::PickPreset(Preset::Lesson(Scenario::Cb)))
                .apply(Action::SetKnob("timeout", 100.0)),
        );
        assert_eq!(changed, "preset=cb&timeout=0.1&t=0.0");
    }

    fn pairs(q: &str) -> Vec<(String, String)> {
        let (p, n) = parse_query(q);
        assert!(n.is_empty(), "{n:?}");
        p
    }

    #[test]
    fn a_permalink_restores_every_setting_and_the_identical_run() {
        let page = Page::default()
            .apply(Action::PickPreset(Preset::Lesson(Scenario::Bulkhead)))
            .apply(Action::SetSeed(42))
            .apply(Action::SetKnob("cooldown", 700.0))
            .apply(Action::SetKnob("threads", 20.0))
            .apply(Action::SetKnob("failure_ratio", 35.0))
            .apply(Action::SetPattern(Pattern::TIMEOUT, false))
            .apply(Action::SetSpeed(5.0))
            .apply(Action::SetLatency(LatencyKind::EndToEnd))
            .apply(Action::SetTableWindow(1.5))
            .apply(Action::Seek(7_300_000));
        let query = to_query(&page);
        let (back, notices) = from_pairs(&pairs(&query));
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(back.config(), page.config());
        assert_eq!(back.settings.full, page.settings.full);
        assert_eq!(back.settings.patterns, page.settings.patterns);
        assert_eq!(
            (
                back.playback.playhead,
                back.playback.speed,
                back.view.latency,
                back.settings.table_window
            ),
            (
                page.playback.playhead,
                page.playback.speed,
                page.view.latency,
                page.settings.table_window
            )
        );
        assert_eq!(to_query(&back), query);
        assert_eq!(back.runs.a.unwrap().trace, page.runs.a.unwrap().trace);
    }

    #[test]
    fn every_preset_and_the_newer_patterns_and_knobs_survive_a_link() {
        // A Resilience4j stack has no jitter, hedge or retry budget to set (its page keeps them
        // off with a notice): those presets are left out here.
        let lesson_stacks = Preset::ALL
            .into_iter()
            .filter(|p| !p.config().first_stack().unwrap().is_library());
        for preset in lesson_stacks {
            let page = Page::default()
                .apply(Action::PickPreset(preset))
                .apply(Action::SetSeed(9))
                .apply(Action::SetPattern(Pattern::RETRY, true))
                .apply(Action::SetPattern(Pattern::RETRY_BUDGET, true))
                .apply(Action::SetPattern(Pattern::LOAD_SHED, true))
                .apply(Action::SetPattern(Pattern::HEDGE, true))
                .apply(Action::SetPattern(Pattern::TIMEOUT, false))
                .apply(Action::SetKnob("max_hedges", 2.0))
                .apply(Action::SetKnob("jitter", 2.0))
                .apply(Action::SetKnob("attempts", 4.0))
                .apply(Action::SetKnob("retry_cap", 30.0))
                .apply(Action::SetKnob("retry_base", 45.0))
                .apply(Action::SetKnob("retry_budget_ratio", 15.0))
                .apply(Action::SetKnob("retry_budget_min", 2.0))
                .apply(Action::SetKnob("shed_high", 400.0))
                .apply(Action::SetKnob("shed_normal", 150.0))
                .apply(Action::SetKnob("shed_low", 70.0))
                .apply(Action::SetKnob("priority_low", 20.0))
                .apply(Action::SetKnob("priority_high", 10.0))
                .apply(Action::Seek(2_500_000));
            assert_eq!(page.notice, None, "{preset:?}");
            let query = to_query(&page);
            assert!(
                query.contains(&format!("preset={}", preset.key())),
                "{query}"
            );
            assert!(query.contains("jitter=equal"), "{query}");
            let (back, notices) = from_pairs(&pairs(&query));
            assert!(notices.is_empty(), "{preset:?}: {notices:?}");
            assert_eq!(back.settings.preset, preset);
            assert_eq!(back.settings.full, page.settings.full, "{preset:?}");
            assert_eq!(back.settings.patterns, page.settings.patterns, "{preset:?}");
            assert_eq!(back.playback.playhead, page.playback.playhead);
            assert_eq!(to_query(&back), query);
            let r = back.config().first_stack().unwrap().retry.unwrap();
            assert_eq!((r.attempts, r.base, r.cap), (4, 45_000, 45_000));
            let stack = back.config().first_stack().cloned().unwrap();
            assert_eq!(stack.rooms.hedge.unwrap().policy.max_hedges, 2);
        }
    }

    #[test]
    fn a_resilience4j_presets_link_brings_its_run_back() {
        let stacks: Vec<Preset> = Preset::ALL
            .into_iter()
            .filter(|p| p.config().first_stack().unwrap().is_resilience4j())
            .collect();
        assert_eq!(stacks.len(), 4);
        for preset in stacks {
            let page = Page::default()
                .apply(Action::PickPreset(preset))
                .apply(Action::SetSeed(9))
                .apply(Action::SetKnob("attempts", 2.0))
                .apply(Action::Seek(2_500_000));
            let query = to_query(&page);
            let (back, notices) = from_pairs(&pairs(&query));
            assert!(notices.is_empty(), "{preset:?}: {notices:?}");
            assert_eq!(back.settings.preset, preset);
            assert_eq!(back.settings.full, page.settings.full, "{preset:?}");
            assert_eq!(to_query(&back), query);
        }
    }

    #[test]
    fn an_ab_link_brings_b_and_its_one_change_back() {
        let cases: [&[Action]; 4] = [
            &[],
            &[Action::SetPattern(Pattern::TIMEOUT, true)],
            &[
                Action::SetPattern(Pattern::TIMEOUT, true),
                Action::SetKnob("timeout", 1_000.0),
            ],
            &[Action::SetKnob("threads", 96.0)],
        ];
        for actions in cases {
            let mut page = Page::new(Preset::Lesson(Scenario::None), false)
                .apply(Action::SetSeed(11))
                .apply(Action::SetAb(true));
            for a in actions {
                page = page.apply(a.clone());
            }
            let query = to_query(&page);
            assert!(query.contains("ab="), "{query}");
            let (back, notices) = from_pairs(&pairs(&query));
            assert!(notices.is_empty(), "{query}: {notices:?}");
            let (b, back_b) = (
                page.settings.ab.as_ref().unwrap(),
                back.settings.ab.as_ref().unwrap(),
            );
            assert_eq!(back_b.change, b.change, "{query}");
            assert_eq!(back.settings.b(), page.settings.b());
            assert_eq!(back.settings.full, page.settings.full, "A is A");
            assert_eq!(to_query(&back), query);
        }
        // Hand-written: the README's example.
        let (page, notices) = from_pairs(&pairs("preset=cb&ab=window=1"));
        assert!(notices.is_empty(), "{notices:?}");
        let b = page.settings.ab.clone().unwrap();
        assert_eq!(b.change.knobs, vec![("window", Value::Time(1_000_000))]);
        assert_eq!(
            page.settings.full.first_breaker().unwrap().window,
            crate::resilience::Window::Time(10_000_000)
        );
    }

    #[test]
    fn a_bad_ab_value_is_named_with_what_it_allows() {
        for (value, needle) in [
            ("frob", "KEY=VALUE"),
            ("nope=3", "rate, threads"),
            ("timeout=99999", "timeout"),
            ("patterns=magic", "not a pattern"),
        ] {
            let (page, notices) = from_pairs(&pairs(&format!("preset=cb&ab={value}")));
            let all = notices.join("\n");
            assert!(all.contains("ab") && all.contains(needle), "{value}: {all}");
            // Refused, it does not reach the run: A/B stays off, as any refused setting.
            assert!(page.settings.ab.is_none(), "{value}");
        }
        let (page, notices) = from_pairs(&pairs("preset=cb&ab=off"));
        assert!(notices.is_empty() && page.settings.ab.is_none());
    }

    #[test]
    fn old_links_keep_working() {
        // A link from before the richer patterns: a lesson preset, three patterns, no new keys.
        let (page, notices) = from_pairs(&pairs(
            "preset=bulkhead&seed=3&patterns=timeout,breaker&cooldown=1.5&t=4.0",
        ));
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(page.settings.preset, Preset::Lesson(Scenario::Bulkhead));
        let cfg = page.config();
        assert!(
            cfg.first_stack().unwrap().timeout.is_some()
                && cfg.first_stack().unwrap().breaker.is_some()
                && cfg.first_stack().unwrap().bulkhead.is_none()
        );
        assert!(
            cfg.first_stack().unwrap().retry.is_none()
                && cfg.first_stack().unwrap().retry_budget.is_none()
                && cfg.service.load_shed.is_none()
        );
        assert_eq!(
            cfg.first_stack().unwrap().breaker.clone().unwrap().cooldown,
            1_500_000
        );
        let (page, notices) = from_pairs(&pairs("preset=saturday&patterns=retries,load_shed"));
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(page.settings.preset, Preset::Saturday);
        assert!(
            page.settings.patterns.get(Pattern::RETRY)
                && page.settings.patterns.get(Pattern::LOAD_SHED)
                && !page.settings.patterns.get(Pattern::TIMEOUT)
        );
        let (_, notices) = from_pairs(&pairs("patterns=hedging"));
        assert!(
            notices[0].contains("retry_budget"),
            "the notice lists the patterns: {notices:?}"
        );
    }

    #[test]
    fn unknown_patterns_get_a_notice_and_leave_the_scenario_as_it_is() {
        let (page, notices) = from_pairs(&pairs("preset=cb&patterns=foo,bar"));
        let all = notices.join("\n");
        assert!(all.contains("foo") && all.contains("bar"), "{all}");
        assert!(all.contains("the scenario keeps its own"), "{all}");
        assert_eq!(
            page.settings.patterns,
            Page::new(Preset::Lesson(Scenario::Cb), false)
                .settings
                .patterns
        );
        assert!(!page.modified(), "the name on the page stays true");
        // A known pattern among them is taken: the run is then modified, and says so.
        let (page, notices) = from_pairs(&pairs("preset=cb&patterns=foo,timeout"));
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(
            page.settings.patterns.get(Pattern::TIMEOUT)
                && !page.settings.patterns.get(Pattern::BREAKER)
        );
        assert!(page.modified());
    }

    #[test]
    fn widget_style_values_use_the_clis_units() {
        let (page, notices) = from_pairs(&pairs("preset=cb&cooldown=2s&timeout=250ms&window=1"));
        assert!(notices.is_empty(), "{notices:?}");
        let cfg = page.config();
        assert_eq!(cfg.first_breaker().unwrap().cooldown, 2_000_000);
        assert_eq!(cfg.first_stack().unwrap().timeout, Some(250_000));
    }

    #[test]
    fn bad_values_are_named_and_the_defaults_stay() {
        let (page, notices) = from_pairs(&pairs(
            "preset=nope&cooldown=abc&threads=100000&speed=3&onclick=alert(1)&patterns=timeout,magic&t=-1",
        ));
        let all = notices.join("\n");
        for needle in [
            "preset", "cooldown", "threads", "speed", "onclick", "magic", "t:",
        ] {
            assert!(all.contains(needle), "no notice names {needle}:\n{all}");
        }
        assert_eq!(page.settings.preset, Preset::OPENING);
        assert_eq!(
            page.settings.full.first_breaker().unwrap().cooldown,
            2_000_000
        );
        assert_eq!(
            page.config().service.threads,
            32,
            "10 000 threads is off the CLI's range"
        );
        assert!(
            page.settings.patterns.get(Pattern::TIMEOUT)
                && !page.settings.patterns.get(Pattern::BREAKER)
        );
        let (page, notices) = from_pairs(&pairs("threads=5000&rate=10000"));
        assert_eq!(
            (page.config().service.threads, page.config().traffic.rate),
            (5000, 10_000.0),
            "on the CLI's range, past the sliders' ends: taken as the link says"
        );
        assert!(notices.is_empty(), "{notices:?}");
        assert!(to_query(&page).contains("threads=5000&"));
        assert!(to_query(&page).contains("rate=10000&"));
        let long = "x".repeat(500);
        let (_, notices) = from_pairs(&pairs(&format!("seed={long}")));
        assert!(notices[0].len() < 200, "a long value is quoted short");
        // Malformed escapes decode leniently; the odd key is then reported, not applied.
        let (p, n) = parse_query("?%zz=%");
        assert!(n.is_empty());
        let (_, notices) = from_pairs(&p);
        assert_eq!(notices.len(), 1, "{notices:?}");
    }
}
