use super::*;
use crate::sim::scenario::{Preset, Scenario};

fn part_of(p: &Param) -> Option<Part> {
    match p.needs {
        Needs::Nothing => None,
        Needs::SwitchesOn(part) | Needs::OnlyWith(part) => Some(part),
    }
}

/// The lesson's bulkhead scenario with every part any row needs switched on.
fn everything_on() -> SimConfig {
    let mut cfg = Scenario::Bulkhead.config();
    for p in PARAMS {
        if let Some(part) = part_of(p) {
            part.switch_on(&mut cfg);
        }
    }
    cfg
}

/// [`everything_on`] as row `row` can take it: Resilience4j's stack has no sidecar, hedge,
/// retry budget, request budget or capacity, so the `stack` row gets a config without them;
/// inventory's hosts and its capacity do not go together, so a row of the hosts gets no
/// capacity and every other row no hosts.
fn everything_on_for(row: &Param) -> SimConfig {
    let mut cfg = everything_on();
    let inventory = &mut cfg.dependencies[0];
    if row.key == "hosts" || matches!(part_of(row), Some(Part::Hosts(_))) {
        inventory.capacity = None;
    } else {
        inventory.hosts = None;
    }
    if row.key == "stack" {
        let inventory = &mut cfg.dependencies[0];
        let stack = &mut inventory.stack;
        (stack.sidecar, stack.retry_budget) = (None, None);
        stack.rooms = Default::default();
        inventory.capacity = None;
        cfg.service.request_budget = None;
    }
    cfg
}

fn secs(t: Micros) -> String {
    format!("{}", t as f64 / SECOND as f64)
}

/// Texts the row must accept (with the value it must read back, when one is exact) and texts
/// one step past its ends, which it must refuse.
fn ends(p: &Param) -> (Vec<(String, Option<Value>)>, Vec<String>) {
    match p.kind {
        Kind::Time { min, max, .. } => {
            let mut past = vec![secs(max + 1)];
            past.push(format!("{}", min as f64 / SECOND as f64 - 1e-6));
            let ok = [min, max].map(|t| (secs(t), Some(Value::Time(t)))).to_vec();
            (ok, past)
        }
        Kind::Count { min, max, .. } => {
            let ok = [min, max]
                .map(|n| (n.to_string(), Some(Value::Count(n))))
                .to_vec();
            let past = vec![
                (i128::from(min) - 1).to_string(),
                (i128::from(max) + 1).to_string(),
            ];
            (ok, past)
        }
        Kind::CountOrOff { min, max, .. } => {
            let mut ok: Vec<_> = [min, max]
                .map(|n| (n.to_string(), Some(Value::Count(n))))
                .to_vec();
            ok.push(("off".to_string(), Some(Value::Off)));
            let past = vec![
                (i128::from(min) - 1).to_string(),
                (i128::from(max) + 1).to_string(),
                "maybe".to_string(),
            ];
            (ok, past)
        }
        Kind::Number {
            min,
            max,
            above_min,
            ..
        } => {
            let step = 1e-9 * max.abs().max(1.0);
            let least = if above_min { min + step } else { min };
            let ok = [least, max]
                .map(|v| (v.to_string(), Some(Value::Number(v))))
                .to_vec();
            let below = if above_min { min } else { min - step };
            (ok, vec![below.to_string(), (max + step).to_string()])
        }
        Kind::Choice { names, .. } => {
            let ok = names.iter().map(|n| (n.to_string(), None)).collect();
            (ok, vec!["maybe".to_string(), String::new()])
        }
        Kind::Delay { .. } => {
            let ok = vec![
                ("0.000001".to_string(), Some(Value::Delay(Delay::Fixed(1)))),
                (
                    "60".to_string(),
                    Some(Value::Delay(Delay::Fixed(60 * SECOND))),
                ),
                ("p100".to_string(), None),
            ];
            (
                ok,
                vec!["0".into(), "60.000001".into(), "p0".into(), "p100.1".into()],
            )
        }
    }
}

#[test]
fn every_row_takes_its_ends_and_refuses_one_step_past_them_naming_its_key() {
    // The config bounds these by another parameter's value (a p99 is at least its median):
    // that one is set to 0 first, so the row's own least value is the bound.
    let bounded_by = [
        ("recover_at", "degrade_at"),
        ("fast_p99", "fast"),
        ("slow_p99", "slow"),
        ("payments_recover_at", "payments_degrade_at"),
        ("payments_fast_p99", "payments_fast"),
        ("payments_slow_p99", "payments_slow"),
    ];
    let mut invalid = Vec::new();
    for p in PARAMS {
        let (ok, past) = ends(p);
        for (text, expected) in ok {
            let mut cfg = everything_on_for(p);
            for (_, floor) in bounded_by.iter().filter(|(key, _)| *key == p.key) {
                apply_set(&mut cfg, floor, "0").unwrap();
            }
            assert_eq!(
                apply_set(&mut cfg, p.key, &text),
                Ok(Applied::Set),
                "{}={text}",
                p.key
            );
            let back = (p.read)(&cfg).unwrap_or_else(|| panic!("{} reads nothing", p.key));
            if let Some(expected) = expected {
                assert_eq!(back, expected, "{}={text}", p.key);
            }
            if let Err(e) = cfg.validate() {
                invalid.push(format!("{}={text}: {e}", p.key));
            }
            // What it reads, written again, changes nothing.
            let again = p.text(back);
            let before = cfg.clone();
            apply_set(&mut cfg, p.key, &again).unwrap();
            assert_eq!(cfg, before, "{}={again} after {text}", p.key);
        }
        for text in past {
            let mut cfg = everything_on_for(p);
            let e = apply_set(&mut cfg, p.key, &text).unwrap_err();
            assert_eq!(e.field, p.key, "{}={text}", p.key);
            assert!(e.to_string().starts_with(p.key), "{e}");
            assert_eq!(
                cfg,
                everything_on_for(p),
                "{}={text} changed the config",
                p.key
            );
        }
    }
    assert!(
        invalid.is_empty(),
        "accepted, then refused by the config: {invalid:#?}"
    );
}

#[test]
fn a_key_whose_part_is_off_switches_it_on_or_says_it_left_the_config_alone() {
    let bare = Scenario::None.config();
    for p in PARAMS {
        let (ok, _) = ends(p);
        let text = &ok.last().unwrap().0;
        let mut cfg = bare.clone();
        let applied = apply_set(&mut cfg, p.key, text).unwrap();
        match p.needs {
            Needs::Nothing => assert_eq!(applied, Applied::Set, "{}", p.key),
            Needs::SwitchesOn(part) => {
                assert_eq!(applied, Applied::Set, "{}", p.key);
                assert!(part.is_on(&cfg), "{} did not switch {part:?} on", p.key);
            }
            Needs::OnlyWith(part) if part.is_on(&bare) => assert_eq!(applied, Applied::Set),
            Needs::OnlyWith(_) => {
                assert!(
                    matches!(applied, Applied::LeftOff { key, .. } if key == p.key),
                    "{}",
                    p.key
                );
                assert!(applied.to_string().contains(p.key));
                assert_eq!(cfg, bare, "{} changed a config without its part", p.key);
            }
        }
    }
}

#[test]
fn the_config_names_a_value_past_its_range_by_the_rows_key() {
    // Rows whose write moves a partner along (to keep the config valid) see the partner that
    // followed them past its end named instead: a config file sets each field alone.
    let partners = [
        ("retry_budget_min", "cap"),
        ("shed_normal", "shed_high"),
        ("shed_low", "shed_high"),
        ("priority_low", "priority_high"),
    ];
    let mut wrong = Vec::new();
    for p in PARAMS {
        let mut cfg = everything_on_for(p);
        match p.kind {
            Kind::Time { max, write, .. } if max < u64::MAX => write(&mut cfg, max + 1),
            Kind::Count { max, write, .. } if max < u64::MAX => write(&mut cfg, max + 1),
            Kind::CountOrOff { max, write, .. } => write(&mut cfg, Some(max + 1)),
            Kind::Number { max, write, .. } => write(&mut cfg, max + 0.5),
            _ => continue,
        }
        match cfg.validate() {
            Err(e) if e.field == p.key => {}
            Err(e) if partners.contains(&(p.key, e.field)) => {}
            other => wrong.push(format!("{}: {other:?}", p.key)),
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn keys_are_unique_and_names_follow_their_tables() {
    let mut keys = SET_KEYS.to_vec();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), PARAMS.len());
    let names: Vec<String> = crate::resilience::Fallback::ALL
        .iter()
        .map(|f| f.label().to_string())
        .collect();
    assert_eq!(
        rows::FALLBACK_NAMES[3..],
        names[..],
        "fallback names follow Fallback::ALL"
    );
    let breaker = |field| ParamError::new(field, "", "").within("breaker");
    assert_eq!(
        dependency_key(1, "payments", &breaker("cooldown")).map(|e| e.field),
        Some("payments_cooldown")
    );
    assert_eq!(
        dependency_key(1, "payments", &breaker("half_open_probes")),
        None
    );
}

/// A text row `row` takes, made from `seed`: a value inside its range, written as the CLI, a
/// link or a widget attribute would write it.
fn some_text(row: &Param, seed: u64) -> String {
    let pick = |lo: u64, hi: u64| match (hi - lo).checked_add(1) {
        Some(span) => lo + seed % span,
        None => seed,
    };
    match row.kind {
        Kind::Time { min, max, .. } => secs(pick(min, max)),
        Kind::Count { min, max, .. } => pick(min, max).to_string(),
        Kind::CountOrOff { min, max, .. } if seed.is_multiple_of(5) => {
            let _ = (min, max);
            "off".to_string()
        }
        Kind::CountOrOff { min, max, .. } => pick(min, max).to_string(),
        Kind::Number { min, max, .. } => {
            // Never the bottom itself, which some rows refuse.
            let share = (seed % 1_000_000 + 1) as f64 / 1_000_000.0;
            (min + (max - min) * share).to_string()
        }
        Kind::Choice { names, .. } => names[seed as usize % names.len()].to_string(),
        Kind::Delay { .. } if seed.is_multiple_of(2) => format!("p{}", pick(50, 99)),
        Kind::Delay { .. } => secs(pick(MS, 10 * SECOND)),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// The text a row took is the text it gives back: `text(read(write(parse(x)))) == x`, for
    /// every row of the table, so the address, `--set` and a widget attribute say the same
    /// value the page shows.
    #[test]
    fn every_row_gives_back_the_text_it_took(index in 0..PARAMS.len(), seed in proptest::prelude::any::<u64>()) {
        let row = &PARAMS[index];
        let text = some_text(row, seed);
        let mut cfg = everything_on_for(row);
        let applied = apply_set(&mut cfg, row.key, &text);
        proptest::prop_assert!(matches!(applied, Ok(Applied::Set)), "{}={text}: {applied:?}", row.key);
        let read = (row.read)(&cfg);
        proptest::prop_assert!(read.is_some(), "{}={text} reads nothing", row.key);
        let given_back = row.text(read.unwrap());
        // One shorthand reads back as what it stands for: `fallback=on` is
        // `fallback=pending_confirmation`, and writes the same config.
        if (row.key, text.as_str()) == ("fallback", "on") {
            proptest::prop_assert_eq!(given_back.as_str(), "pending_confirmation");
            let mut again = everything_on_for(row);
            apply_set(&mut again, row.key, &given_back).unwrap();
            proptest::prop_assert_eq!(again, cfg);
        } else {
            proptest::prop_assert_eq!(given_back, text, "{}", row.key);
        }
    }
}

/// The model names a dependency's fields; the table, above it, names their keys: payments'
/// minimum of calls is `payments_min_calls` at the text edge, and the model's own check (the
/// one a run makes) names payments with the field beside the value.
#[test]
fn a_dependency_field_is_named_by_its_key_at_the_edge_and_by_its_field_in_the_model() {
    let mut cfg = Preset::parse("cb").unwrap().config();
    apply_set(&mut cfg, "payments", "on").unwrap();
    cfg.dependencies[1]
        .stack
        .breaker
        .as_mut()
        .unwrap()
        .min_calls = 0;
    assert_eq!(cfg.validate().unwrap_err().field, "payments_min_calls");
    let own = cfg
        .validate_naming(crate::sim::model::own_field)
        .unwrap_err();
    assert_eq!(
        (own.field, own.value.as_str()),
        ("payments", "0 (breaker.min_calls)")
    );
    match crate::sim::model::run(&cfg) {
        Err(crate::sim::model::RunError::Param(e)) => assert_eq!(e, own),
        other => panic!("the run was not refused: {other:?}"),
    }
}

/// A layer's check names its own field (`breaker`, `half_open_probes`); the row that writes
/// it names it by key at the edge, whether the layer's name for it differs from the key or
/// not. A field no key sets is named where it sits in the config.
#[test]
fn a_layers_own_field_is_named_by_the_key_of_the_row_that_lists_it() {
    const INV: Dep = Dep::First;
    type Break = fn(&mut SimConfig);
    let cases: [(&str, Break); 12] = [
        ("probes", |c| {
            INV.stack(c).breaker.as_mut().unwrap().half_open_probes = 0
        }),
        ("cooldown", |c| {
            INV.stack(c).breaker.as_mut().unwrap().cooldown = 0
        }),
        ("retry_base", |c| {
            INV.stack(c).retry.as_mut().unwrap().base = 0
        }),
        ("retry_budget_ratio", |c| {
            INV.stack(c).retry_budget.as_mut().unwrap().ratio = 2.0
        }),
        ("sidecar_retries", |c| {
            INV.stack(c).sidecar.as_mut().unwrap().retries = 1_000_000
        }),
        ("sidecar.base", |c| {
            INV.stack(c).sidecar.as_mut().unwrap().base = 0
        }),
        ("hedge_after", |c| {
            INV.stack(c).rooms.hedge.as_mut().unwrap().policy.delay = Delay::Fixed(0)
        }),
        ("max_hedges", |c| {
            INV.stack(c).rooms.hedge.as_mut().unwrap().policy.max_hedges = 0
        }),
        ("limit_min", |c| {
            INV.stack(c).rooms.adaptive_limit.as_mut().unwrap().min = 0
        }),
        ("limit_slow_after", |c| {
            INV.stack(c)
                .rooms
                .adaptive_limit
                .as_mut()
                .unwrap()
                .slow_after = 0
        }),
        ("shed_low", |c| {
            let shed = c.service.load_shed.as_mut().unwrap();
            shed.low = shed.normal + 1;
        }),
        ("rate_limit", |c| {
            c.service.rate_limit.as_mut().unwrap().rate_per_sec = 0.0
        }),
    ];
    for (key, break_it) in cases {
        let mut cfg = Preset::parse("cb").unwrap().config();
        for (k, v) in [
            ("attempts", "3"),
            ("retry_budget_ratio", "0.1"),
            ("sidecar_retries", "1"),
            ("hedge", "on"),
            ("limit_min", "2"),
            ("shed_normal", "50"),
            ("rate_limit", "100"),
        ] {
            apply_set(&mut cfg, k, v).unwrap();
        }
        cfg.validate().unwrap();
        break_it(&mut cfg);
        let e = cfg.validate().unwrap_err();
        let named = e.to_string();
        assert!(named.starts_with(&format!("{key}: ")), "{key}: {named}");
    }
}

/// The paths `leaf` reaches in a config's JSON: every number and every boolean.
fn leaves(v: &serde_json::Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        serde_json::Value::Object(m) => m.iter().for_each(|(k, x)| {
            path.push(k.clone());
            leaves(x, path, out);
            path.pop();
        }),
        serde_json::Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| {
            path.push(i.to_string());
            leaves(x, path, out);
            path.pop();
        }),
        serde_json::Value::Number(_) | serde_json::Value::Bool(_) => out.push(path.clone()),
        _ => {}
    }
}

/// Every field a row lists in its `fields` is one a check names: each number and boolean of a
/// config with every part on, set out of range, is refused by the model naming its field where
/// it sits, and the fields named so include every row's.
#[test]
fn every_field_a_row_lists_is_one_a_check_names() {
    let mut named = std::collections::BTreeSet::new();
    // A hedge delay is a percentile of the latencies seen, or a fixed time.
    for hedge_after in ["p95", "80ms"] {
        let mut cfg = everything_on();
        cfg.dependencies[0].hosts = None;
        apply_set(&mut cfg, "hedge_after", hedge_after).unwrap();
        // The gateway's own timeouts of a route are off until one is set.
        for key in ["orders_timeout", "catalog_timeout", "history_timeout"] {
            apply_set(&mut cfg, key, "1").unwrap();
        }
        name_every_bad_leaf(&cfg, &mut named);
    }
    for row in PARAMS {
        for field in row.fields {
            assert!(
                named.contains(*field),
                "{}: no check names {field}",
                row.key
            );
        }
    }
}

/// Adds to `named` the field the model names (`part.field`) for each number and boolean of
/// `cfg` set out of range.
fn name_every_bad_leaf(cfg: &SimConfig, named: &mut std::collections::BTreeSet<String>) {
    let json = serde_json::to_value(cfg).unwrap();
    let mut paths = Vec::new();
    leaves(&json, &mut Vec::new(), &mut paths);
    for path in paths {
        let bad_values = [
            serde_json::json!(0),
            serde_json::json!(2.5),
            serde_json::json!(100_000_000),
            serde_json::json!(1e15 as u64),
            serde_json::json!(false),
        ];
        for bad in bad_values {
            let mut edited = json.clone();
            let leaf = path.iter().fold(&mut edited, |at, k| match at {
                serde_json::Value::Array(a) => &mut a[k.parse::<usize>().unwrap()],
                other => &mut other[k.as_str()],
            });
            *leaf = bad;
            let Ok(edited) = serde_json::from_value::<SimConfig>(edited) else {
                continue;
            };
            if let Err(e) = edited.validate_naming(crate::sim::model::own_field) {
                if e.section.is_some() {
                    named.insert(e.path());
                }
            }
        }
    }
}
