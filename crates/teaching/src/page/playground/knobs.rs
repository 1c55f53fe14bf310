//! The knobs the page offers: each one a row of the parameter table
//! ([`PARAMS`]) with a slider range, a unit and the pattern it
//! belongs to. Values are read and written through the row as typed values
//! ([`Param::set`]), with no text in between; the CLI's `--set` parses its text into the same
//! values, so the page and the CLI cannot disagree on what a key means.

use crate::page::numbers::{duration, refused as refused_text};
use crate::sim::latency::Micros;
pub use crate::sim::model::Pattern;
use crate::sim::model::SimConfig;
pub use crate::sim::params::Unit;
use crate::sim::params::{param, Kind, Needs, Panel, Param, Value, PARAMS};
use std::sync::OnceLock;

const MS: f64 = 1_000.0;
const SECOND: f64 = 1_000_000.0;

/// Which of the page's switches ([`Pattern::SWITCHES`]) are on: a set of patterns, one bit
/// each, so a new pattern needs no field here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Patterns(u16);

// One bit per pattern.
const _: () = assert!(Pattern::ALL.len() <= 16);

impl Patterns {
    /// The page's switches that `cfg` has on.
    pub fn of(cfg: &SimConfig) -> Self {
        let mut on = Patterns::default();
        for pattern in Pattern::SWITCHES {
            on.set(pattern, pattern.is_on(cfg));
        }
        on
    }

    fn bit(pattern: Pattern) -> u16 {
        1 << pattern.index()
    }

    /// Whether `pattern` is on.
    pub fn get(self, pattern: Pattern) -> bool {
        self.0 & Patterns::bit(pattern) != 0
    }

    /// Switches `pattern` on or off.
    pub fn set(&mut self, pattern: Pattern, on: bool) {
        if on {
            self.0 |= Patterns::bit(pattern);
        } else {
            self.0 &= !Patterns::bit(pattern);
        }
    }
}

/// `cfg` with every pattern present: those it lacks get the lesson's values, so a student who
/// switches one on starts from the lesson's numbers. The values are the parameter table's
/// ([`crate::sim::params::Part::switch_on`]), the same a `--set` key or a link switches a
/// pattern on with; a library's stack gets only the strategies it has a place for.
pub fn with_every_pattern(cfg: &SimConfig) -> SimConfig {
    let profile = cfg
        .first_stack()
        .map(|s| s.profile.clone())
        .unwrap_or_default();
    let mut full = cfg.clone();
    for pattern in Pattern::SWITCHES {
        if !profile.has_place_for(pattern) {
            continue;
        }
        pattern.part().switch_on(&mut full);
    }
    full
}

/// `full` with the patterns that are off taken out.
pub fn with_patterns(full: &SimConfig, on: Patterns) -> SimConfig {
    let mut cfg = full.clone();
    for pattern in Pattern::SWITCHES {
        if !on.get(pattern) {
            pattern.part().switch_off(&mut cfg);
        }
    }
    cfg
}

/// One slider (or select) of the page: a row of the parameter table ([`PARAMS`]) with the
/// label, unit and range the page shows it in (the row's panel, or made from its key and
/// range). Its hint and its choices are the row's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Knob {
    /// The row's key ([`Param::key`]); also the element id.
    pub key: &'static str,
    /// Its label, unit and slider range.
    pub panel: Panel,
}

const PANEL_ROWS: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < PARAMS.len() {
        if PARAMS[i].panel.is_some() {
            n += 1;
        }
        i += 1;
    }
    n
};

/// The panel's knobs: the rows of the parameter table that have a [`Panel`], in the table's
/// order (the panel groups them by pattern).
pub const KNOBS: [Knob; PANEL_ROWS] = {
    let mut knobs = [Knob {
        key: "",
        panel: Panel {
            label: "",
            unit: Unit::Count,
            min: 0.0,
            max: 0.0,
            step: 0.0,
            shown_with: None,
        },
    }; PANEL_ROWS];
    let (mut i, mut n) = (0, 0);
    while i < PARAMS.len() {
        if let Some(panel) = PARAMS[i].panel {
            knobs[n] = Knob {
                key: PARAMS[i].key,
                panel,
            };
            n += 1;
        }
        i += 1;
    }
    knobs
};

/// What [`Knob::write_checked`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// Whether the value (clamped to the slider) was written.
    pub set: bool,
    /// What had to be corrected or refused.
    pub notice: Option<String>,
}

/// The knob with `key`: the panel's own, or the one made from its row for a key the panel
/// does not show, so a lesson's `@try` and `@controls`, a link and a widget attribute take
/// every key `--set` takes.
pub fn knob(key: &str) -> Option<&'static Knob> {
    let key = param(key).map_or(key, |row| row.key);
    every_knob().iter().find(|k| k.key == key)
}

/// Every parameter as a knob: [`KNOBS`] in their order, then a knob made from each row of the
/// parameter table that the panel does not show (`row_knob`).
pub fn every_knob() -> &'static [Knob] {
    static ALL: OnceLock<Vec<Knob>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = KNOBS.to_vec();
        all.extend(
            PARAMS
                .iter()
                .filter(|row| !KNOBS.iter().any(|k| k.key == row.key))
                .map(row_knob),
        );
        all
    })
}

/// The page's switch that setting `row` turns on ([`Needs::SwitchesOn`]), or that greys its
/// control while off ([`Needs::OnlyWith`]); `None` for a row of no switch.
pub fn switch_of(row: &Param) -> Option<Pattern> {
    let part = match row.needs {
        Needs::Nothing => return None,
        Needs::SwitchesOn(part) | Needs::OnlyWith(part) => part,
    };
    Pattern::SWITCHES.into_iter().find(|p| p.part() == part)
}

/// The switch a value written to `key` turns on, as `--set` does: `retry_budget_ratio=0.1`
/// switches the retry budget on.
pub fn switched_on_by(key: &str) -> Option<Pattern> {
    let row = param(key)?;
    matches!(row.needs, Needs::SwitchesOn(_))
        .then(|| switch_of(row))
        .flatten()
}

/// A knob for a row the panel does not show: its label is its key in words, its range the
/// row's (a long one cut to what a slider can offer; a link still takes the whole range).
fn row_knob(row: &'static Param) -> Knob {
    let mut words = row.key.replace('_', " ");
    words[..1].make_ascii_uppercase();
    let label: &'static str = Box::leak(words.into_boxed_str());
    let (unit, min, max, step) = match row.kind {
        Kind::Time { min, max, .. } if max <= 10_000_000 => {
            let (lo, hi) = (min as f64 / MS, max as f64 / MS);
            (
                Unit::Millis,
                lo.ceil(),
                hi,
                if hi > 1_000.0 { 10.0 } else { 1.0 },
            )
        }
        Kind::Time { min, max, .. } => {
            let hi = (max as f64 / SECOND).min(600.0);
            (
                Unit::Seconds,
                (min as f64 / SECOND * 10.0).ceil() / 10.0,
                hi,
                0.1,
            )
        }
        Kind::Count { min, max, .. } => (
            Unit::Count,
            min as f64,
            max.min(min.saturating_add(1_000)) as f64,
            1.0,
        ),
        // The slider's bottom end is off.
        Kind::CountOrOff { min, max, .. } => {
            let off = min.saturating_sub(1);
            (
                Unit::Count,
                off as f64,
                max.min(off.saturating_add(1_000)) as f64,
                1.0,
            )
        }
        Kind::Number { min, max, .. } if min >= 0.0 && max <= 1.0 => {
            (Unit::Percent, min * 100.0, max * 100.0, 1.0)
        }
        Kind::Number { min, max, .. } => (Unit::Count, min, max, ((max - min) / 100.0).max(0.01)),
        Kind::Choice { names, .. } => (Unit::Count, 0.0, names.len().saturating_sub(1) as f64, 1.0),
        Kind::Delay { .. } => (Unit::Millis, 1.0, 1_000.0, 1.0),
    };
    Knob {
        key: row.key,
        panel: Panel {
            label,
            unit,
            min,
            max,
            step,
            shown_with: None,
        },
    }
}

impl Knob {
    /// The switch the knob belongs to, if any: the pattern its row switches on or needs
    /// ([`switch_of`]), else the group it is shown with. Its slider is greyed out while the
    /// pattern is off.
    pub fn pattern(&self) -> Option<Pattern> {
        self.param().and_then(switch_of).or(self.panel.shown_with)
    }

    /// Its row of the parameter table (every knob has one: a test checks).
    pub fn param(&self) -> Option<&'static Param> {
        param(self.key)
    }

    /// One line on what it does: the row's doc.
    pub fn hint(&self) -> &'static str {
        self.param().map_or("", |p| p.doc)
    }

    /// For a knob that picks one of a few names (a select): the row's names, and the knob's
    /// value is the index of the one picked (`min` 0, `max` the last index, `step` 1). Empty
    /// for a slider.
    pub fn choices(&self) -> &'static [&'static str] {
        match self.param().map(|p| p.kind) {
            Some(Kind::Choice { names, .. }) => names,
            _ => &[],
        }
    }

    /// True for a knob that picks one of a few names (shown as a select).
    pub fn is_choice(&self) -> bool {
        !self.choices().is_empty()
    }

    /// The knob's value in `cfg` (which should have every pattern, see [`with_every_pattern`]),
    /// in the knob's unit; its lowest value while the part it tunes is off.
    pub fn read(&self, cfg: &SimConfig) -> f64 {
        let value = self.param().and_then(|p| (p.read)(cfg));
        match value {
            // A part that is off: a choice says "off" where it has one.
            None => self
                .choices()
                .iter()
                .position(|&n| n == "off")
                .map_or(self.panel.min, |i| i as f64),
            Some(value) => self.panel.unit.number(value).unwrap_or(self.panel.min),
        }
    }

    /// Sets the knob to `value` in `cfg`, clamped to the slider's range. Returns a message
    /// naming the knob and its range when `value` was outside it or not a number.
    pub fn write(&self, cfg: &mut SimConfig, value: f64) -> Option<String> {
        self.write_checked(cfg, value).notice
    }

    /// [`Knob::write`], saying also whether a value was written (a refused one leaves `cfg`
    /// as it was).
    pub fn write_checked(&self, cfg: &mut SimConfig, value: f64) -> Written {
        let refused = |notice: String| Written {
            set: false,
            notice: Some(notice),
        };
        let (value, notice) = if !value.is_finite() {
            return refused(self.range_message("needs a number"));
        } else if value < self.panel.min || value > self.panel.max {
            let clamped = value.clamp(self.panel.min, self.panel.max);
            (
                clamped,
                Some(self.range_message(&format!("was {value}; using {clamped}"))),
            )
        } else {
            (value, None)
        };
        let Some(row) = self.param() else {
            return refused(format!("there is no parameter named {}", self.key));
        };
        let before = cfg.clone();
        match row.set(cfg, self.value(value)) {
            // A value can be in its own range and still clash with another one (recovering
            // before degrading): then nothing changes, and the notice says why.
            Ok(_) => match cfg.validate() {
                Ok(()) => Written {
                    set: true,
                    notice: match (notice, self.others_moved(&before, cfg)) {
                        (Some(range), Some(moved)) => Some(format!("{range} {moved}")),
                        (range, moved) => moved.or(range),
                    },
                },
                Err(e) => {
                    *cfg = before;
                    refused(format!("{}; the setting is unchanged.", refused_text(&e)))
                }
            },
            Err(e) => {
                *cfg = before;
                refused(refused_text(&e))
            }
        }
    }

    /// A notice naming every other control that this one's new value moved (a shedding
    /// limit keeps the three in order, a priority share keeps the shares within 1): never
    /// silently.
    fn others_moved(&self, before: &SimConfig, after: &SimConfig) -> Option<String> {
        let moved: Vec<String> = KNOBS
            .iter()
            .filter(|k| k.key != self.key && k.pattern() == self.pattern())
            // Only settings that were there before: switching a part on brings its settings.
            .filter(|k| k.param().and_then(|p| (p.read)(before)).is_some())
            .filter(|k| k.read(before) != k.read(after))
            .map(|k| {
                let (was, is) = (k.shown(k.read(before)), k.shown(k.read(after)));
                format!("{} {was} → {is}", k.key)
            })
            .collect();
        (!moved.is_empty()).then(|| {
            format!(
                "{} moved {} too, to keep the settings consistent; it stays there when {} \
                 moves back.",
                self.key,
                moved.join(", "),
                self.key
            )
        })
    }

    /// `value` as a sentence shows it: a choice's name, or the number with its unit.
    pub fn value_text(&self, value: f64) -> String {
        if let Some(name) = self.choices().get(value.round().max(0.0) as usize) {
            return (*name).to_string();
        }
        let decimals = if self.panel.step >= 1.0 {
            0
        } else {
            (-self.panel.step.log10()).ceil().clamp(0.0, 3.0) as usize
        };
        let number = format!("{value:.decimals$}");
        match self.panel.unit.symbol() {
            "" => number,
            "%" => format!("{number}%"),
            unit => format!("{number} {unit}"),
        }
    }

    /// `value` moved by `steps` of the knob's step, on its grid and within its range.
    pub fn stepped(&self, value: f64, steps: f64) -> f64 {
        let raw = value + steps * self.panel.step;
        let on_grid =
            self.panel.min + ((raw - self.panel.min) / self.panel.step).round() * self.panel.step;
        on_grid.clamp(self.panel.min, self.panel.max)
    }

    /// The text that gives back exactly the value `cfg` holds, for links: the row's one
    /// format ([`Param::text`]); while the part it tunes is off, of the slider's reading.
    pub fn link_text(&self, cfg: &SimConfig) -> String {
        self.param().map_or_else(String::new, |row| {
            let value = (row.read)(cfg).unwrap_or_else(|| self.value(self.read(cfg)));
            row.text(value)
        })
    }

    /// `value`, in the knob's unit, as the row's typed value: what the slider at `value`
    /// writes.
    pub fn value(&self, value: f64) -> Value {
        match self.param().map(|p| p.kind) {
            // A count that may be off: the slider's bottom end is off.
            Some(Kind::CountOrOff { .. }) if value.round() <= self.panel.min => Value::Off,
            Some(kind) => kind.value_at(self.panel.unit, value),
            None => Value::Count(value.round().max(0.0) as u64),
        }
    }

    /// A value of the knob, in its unit, as the page prints it ("300 ms", "50 %", a choice's
    /// name, a count or "off").
    pub fn shown(&self, value: f64) -> String {
        match self.panel.unit {
            _ if self.is_choice() => self.row_text(value),
            Unit::Millis => duration((value * 1_000.0).round() as Micros),
            Unit::Seconds => format!("{value} s"),
            Unit::Percent => format!("{value} %"),
            Unit::PerSecond => format!("{value} req/s"),
            Unit::Count => self.row_text(value),
        }
    }

    /// The row's text of the slider at `value`.
    fn row_text(&self, value: f64) -> String {
        self.param()
            .map_or_else(|| value.to_string(), |row| row.text(self.value(value)))
    }

    fn range_message(&self, what: &str) -> String {
        let choices = self.choices();
        if !choices.is_empty() {
            return format!(
                "{} ({}) must be one of {} (0 to {}); it {what}.",
                self.panel.label,
                self.key,
                choices.join(", "),
                choices.len() - 1
            );
        }
        format!(
            "{} ({}) must be between {} and {} {}; it {what}.",
            self.panel.label,
            self.key,
            self.panel.min,
            self.panel.max,
            self.panel.unit.symbol()
        )
    }
}

#[cfg(test)]
mod tests {
    /// An inline control steps on its knob's grid, within its range, and says its value in
    /// words.
    #[test]
    fn a_knob_steps_on_its_grid_and_says_its_value() {
        let threads = knob("threads").unwrap();
        assert_eq!(threads.stepped(96.0, 1.0), 96.0 + threads.panel.step);
        assert_eq!(threads.stepped(threads.panel.max, 3.0), threads.panel.max);
        assert_eq!(threads.stepped(threads.panel.min, -3.0), threads.panel.min);
        assert_eq!(threads.value_text(96.0), "96");
        let timeout = knob("timeout").unwrap();
        assert!(timeout
            .value_text(300.0)
            .ends_with(timeout.panel.unit.symbol()));
        let jitter = knob("jitter").unwrap();
        assert_eq!(jitter.value_text(0.0), jitter.choices()[0]);
        assert_eq!(jitter.stepped(0.0, 1.0), 1.0);
    }

    /// Moving one shedding limit past another moves that one too, and says so.
    #[test]
    fn a_control_that_moves_another_says_so() {
        let mut cfg =
            crate::sim::scenario::Preset::Lesson(crate::sim::scenario::Scenario::None).config();
        let normal = knob("shed_normal").unwrap();
        assert_eq!(
            normal.write(&mut cfg, 60.0),
            None,
            "switching shedding on moves nothing"
        );
        let high = knob("shed_high").unwrap();
        let before = high.read(&cfg);
        let notice = normal.write(&mut cfg, before + 5.0).expect("a notice");
        assert!(
            notice.starts_with(&format!(
                "shed_normal moved shed_high {before} → {}",
                before + 5.0
            )),
            "{notice}"
        );
        assert_eq!(
            normal.write(&mut cfg, 50.0),
            None,
            "moving back moves nothing"
        );
        // Out of its range and moving another: both are said.
        let notice = normal
            .write(&mut cfg, normal.panel.max + 50.0)
            .expect("a notice");
        assert!(
            notice.contains(&format!("using {}", normal.panel.max))
                && notice.contains("moved shed_high"),
            "{notice}"
        );
    }

    /// A choice whose part is off reads "off", not its first name.
    #[test]
    fn an_idempotency_key_reads_off_when_orders_has_none() {
        let k = knob("idempotency_key").unwrap();
        for preset in [
            crate::sim::scenario::Preset::Lesson(crate::sim::scenario::Scenario::None),
            crate::sim::scenario::Preset::StoryResend,
        ] {
            assert_eq!(k.choices()[k.read(&preset.config()) as usize], "off");
        }
    }

    use super::*;
    use crate::resilience::Jitter;
    use crate::sim::scenario::{apply_set, Preset, Scenario, JITTER_NAMES};

    #[test]
    fn every_knob_is_a_row_of_the_table_and_its_slider_stays_in_the_rows_range() {
        let mut cfg = with_every_pattern(&Scenario::None.config());
        for k in KNOBS {
            let p = k.param().unwrap_or_else(|| panic!("{} has no row", k.key));
            assert!(!k.hint().is_empty(), "{}", k.key);
            for v in [k.panel.min, k.panel.max] {
                // The slider's ends are within the row's range: the row takes them.
                let value = k.value(v);
                assert!(p.set(&mut cfg, value).is_ok(), "{}={value:?}", k.key);
            }
        }
    }

    #[test]
    fn every_knob_reads_back_what_it_wrote() {
        let mut cfg = with_every_pattern(&Scenario::None.config());
        for k in KNOBS {
            if k.key == "recover_at" {
                // Its slider starts at 0: a run that degrades from 0 may recover at any of it.
                apply_set(&mut cfg, "degrade_at", "0").unwrap();
            }
            for v in [k.panel.min, k.panel.max, (k.panel.min + k.panel.max) / 2.0] {
                let v = (v / k.panel.step).round() * k.panel.step;
                // In range, nothing is refused; a limit kept in order may move another, and says so.
                if let Some(notice) = k.write(&mut cfg, v) {
                    assert!(notice.starts_with(&format!("{} moved ", k.key)), "{notice}");
                }
                let back = k.read(&cfg);
                assert!((back - v).abs() < 1e-9, "{}: wrote {v}, read {back}", k.key);
            }
        }
        cfg.validate().unwrap();
    }

    #[test]
    fn out_of_range_values_are_clamped_with_a_message_naming_the_knob() {
        let mut cfg = with_every_pattern(&Scenario::Cb.config());
        let k = knob("cooldown").unwrap();
        let msg = k.write(&mut cfg, 1e9).unwrap();
        assert!(msg.contains("Cool-down") && msg.contains("100") && msg.contains("30000"));
        assert_eq!(k.read(&cfg), 30_000.0);
        let msg = k.write(&mut cfg, f64::NAN).unwrap();
        assert!(msg.contains("needs a number"), "{msg}");
        assert_eq!(k.read(&cfg), 30_000.0);
        assert!(knob("probes").unwrap().write(&mut cfg, -4.0).is_some());
        assert_eq!(cfg.first_breaker().unwrap().half_open_probes, 1);
    }

    #[test]
    fn slider_defaults_are_the_lessons_values() {
        let cfg = with_every_pattern(&Scenario::Bulkhead.config());
        let read = |key| knob(key).unwrap().read(&cfg);
        assert_eq!(read("rate"), 100.0);
        assert_eq!(read("threads"), 32.0);
        assert_eq!(read("timeout"), 300.0);
        assert_eq!(read("window"), 10.0);
        assert_eq!(read("failure_ratio"), 50.0);
        assert_eq!(read("cooldown"), 2_000.0);
        assert_eq!(read("permits"), 8.0);
        assert_eq!(read("max_wait"), 50.0);
        for k in KNOBS {
            let v = k.read(&cfg);
            assert!(
                v >= k.panel.min && v <= k.panel.max,
                "{} = {v} is off its slider",
                k.key
            );
        }
    }

    #[test]
    fn a_value_that_clashes_with_another_leaves_the_config_unchanged_and_says_why() {
        let mut cfg = with_every_pattern(&Preset::Lesson(Scenario::Cb).config());
        let before = cfg.clone();
        let notice = knob("recover_at").unwrap().write(&mut cfg, 1.0).unwrap();
        // In seconds, as the slider and the link give it (the config holds µs).
        assert_eq!(
            notice,
            "recover_at: 1 s is out of range (allowed: 3 to 3600 s); the setting is unchanged."
        );
        assert_eq!(cfg, before);
        assert_eq!(knob("recover_at").unwrap().write(&mut cfg, 8.0), None);
        assert_eq!(cfg.first().unwrap().faults.recover_at, Some(8_000_000));
    }

    #[test]
    fn every_presets_settings_lie_on_their_sliders() {
        // A preset whose value is past a slider's end shows it in the number field, but the
        // first touch of the slider would put it back inside the range.
        let mut outside = Vec::new();
        for preset in Preset::ALL {
            let full = with_every_pattern(&preset.config());
            for k in KNOBS {
                let v = k.read(&full);
                // An outage set after the run's end means none; so does the slider's end
                // when the run is shorter.
                let never = k.key == "degrade_at"
                    && v * 1e6 >= full.traffic.duration as f64
                    && k.panel.max * 1e6 >= full.traffic.duration as f64;
                if v.is_finite() && !never && !(k.panel.min..=k.panel.max).contains(&v) {
                    outside.push(format!(
                        "{}: {}={v} (slider {}..{})",
                        preset.key(),
                        k.key,
                        k.panel.min,
                        k.panel.max
                    ));
                }
            }
        }
        assert!(outside.is_empty(), "{outside:#?}");
    }

    #[test]
    fn a_knob_shows_in_its_rows_group_and_only_a_row_of_no_switch_names_another() {
        for k in KNOBS {
            let of_row = k.param().and_then(switch_of);
            if k.panel.shown_with.is_some() {
                assert_eq!(of_row, None, "{}: its row decides its group", k.key);
            }
            assert_eq!(k.pattern(), of_row.or(k.panel.shown_with), "{}", k.key);
        }
        assert_eq!(knob("max_hedges").unwrap().pattern(), Some(Pattern::HEDGE));
        assert_eq!(
            knob("limit_min").unwrap().pattern(),
            Some(Pattern::ADAPTIVE_LIMIT)
        );
        assert_eq!(
            knob("priority_low").unwrap().pattern(),
            Some(Pattern::LOAD_SHED)
        );
        assert_eq!(knob("rate").unwrap().pattern(), None);
    }

    #[test]
    fn every_preset_comes_back_from_its_patterns() {
        for preset in Preset::ALL {
            let cfg = preset.config();
            let full = with_every_pattern(&cfg);
            // Every pattern, but those a library's stack has no place for.
            let profile = &cfg.first_stack().unwrap().profile;
            let on_for = |p: &Pattern| profile.has_place_for(*p);
            assert!(
                Pattern::SWITCHES
                    .iter()
                    .all(|p| p.is_on(&full) == on_for(p)),
                "{preset:?}"
            );
            assert_eq!(with_patterns(&full, Patterns::of(&cfg)), cfg, "{preset:?}");
            full.validate().unwrap();
        }
        let mut on = Patterns::default();
        for p in Pattern::SWITCHES {
            assert!(!on.get(p));
            on.set(p, true);
            assert!(on.get(p), "{p:?}");
        }
        let keys: Vec<&str> = Pattern::SWITCHES.iter().map(|p| p.key()).collect();
        let mut unique = keys.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(
            unique.len(),
            keys.len(),
            "pattern keys must differ: {keys:?}"
        );
    }

    #[test]
    fn the_jitter_knob_picks_a_mode_by_its_index_and_names_it_in_links() {
        let names: Vec<&str> = JITTER_NAMES.iter().map(|(n, _)| *n).collect();
        let k = knob("jitter").unwrap();
        assert_eq!(names, k.choices(), "the select and apply_set agree");
        assert!(k.is_choice() && !knob("retry_base").unwrap().is_choice());
        assert_eq!((k.panel.min, k.panel.max), (0.0, (names.len() - 1) as f64));
        let mut cfg = with_every_pattern(&Scenario::None.config());
        assert_eq!(k.write(&mut cfg, 3.0), None);
        assert_eq!(
            cfg.first_stack().unwrap().retry.as_ref().unwrap().jitter,
            Jitter::Decorrelated
        );
        assert_eq!(k.link_text(&cfg), "decorrelated");
        let msg = k.write(&mut cfg, 9.0).unwrap();
        assert!(msg.contains("Jitter") && msg.contains("equal"), "{msg}");
        assert_eq!(k.read(&cfg), 3.0);
        assert!(k.write(&mut cfg, f64::NAN).is_some());
        assert_eq!(k.read(&cfg), 3.0);
    }

    #[test]
    fn the_new_knobs_reach_the_config() {
        let mut cfg = with_every_pattern(&Scenario::Cb.config());
        for (key, value) in [
            ("attempts", 5.0),
            ("retry_base", 40.0),
            ("retry_cap", 400.0),
            ("retry_budget_ratio", 20.0),
            ("retry_budget_min", 3.0),
            ("shed_normal", 50.0),
            ("shed_low", 25.0),
            ("priority_low", 30.0),
        ] {
            assert_eq!(knob(key).unwrap().write(&mut cfg, value), None, "{key}");
        }
        let r = cfg.first_stack().unwrap().retry.as_ref().unwrap();
        assert_eq!((r.attempts, r.base, r.cap), (5, 40_000, 400_000));
        let b = cfg.first_stack().unwrap().retry_budget.as_ref().unwrap();
        assert_eq!((b.ratio, b.minimum), (0.2, 3));
        let l = cfg.service.load_shed.as_ref().unwrap();
        assert_eq!((l.low, l.normal), (25, 50));
        assert_eq!(cfg.traffic.priority_mix.low, 0.3);
        cfg.validate().unwrap();
    }

    #[test]
    fn patterns_switch_off_and_back_on_with_their_values() {
        let mut full = with_every_pattern(&Scenario::None.config());
        knob("permits").unwrap().write(&mut full, 3.0);
        let mut on = Patterns::of(&Scenario::None.config());
        assert_eq!(with_patterns(&full, on), Scenario::None.config());
        on.set(Pattern::BULKHEAD, true);
        let cfg = with_patterns(&full, on);
        assert_eq!(
            cfg.first_stack()
                .unwrap()
                .bulkhead
                .as_ref()
                .unwrap()
                .permits,
            3
        );
        assert!(Pattern::BULKHEAD.is_on(&cfg) && !Pattern::BREAKER.is_on(&cfg));
    }
}
