//! Dependencies as values: a config lists them in call order, the grouped config and the flat
//! one it grew out of run the same, and a third dependency is one more element of the list.

use resilience_playground::sim::config_file::{load_config_json, CascadeConfig};
use resilience_playground::sim::model::{run, DependencyConfig, SimConfig};
use resilience_playground::sim::scenario::{apply_set, Preset};
use resilience_playground::sim::trace::Outcome;

/// The lesson's traffic into a healthy inventory and payments, then `shipping`: 50 ms, failing
/// every call (no retries) from second 6, behind a 300 ms timeout.
const THREE_DEPENDENCIES: &str = r#"{
  "run": { "seed": 0, "drain": true },
  "traffic": { "rate": 100.0, "duration": 12000000 },
  "service": { "threads": 32 },
  "dependencies": [
    { "name": "inventory",
      "faults": { "fast": 40000, "slow": 4000000 },
      "stack": { "timeout": 300000 } },
    { "name": "payments",
      "faults": { "fast": 60000, "slow": 2000000 },
      "stack": { "timeout": 300000,
                 "bulkhead": { "dependency": "payments", "permits": 8, "max_wait": 0 } } },
    { "name": "shipping",
      "faults": { "fast": 50000, "slow": 50000, "degrade_at": 6000000, "error_rate": 1.0 },
      "stack": { "timeout": 300000 } }
  ]
}"#;

#[test]
fn a_third_dependency_is_one_more_element_of_the_list() {
    let cfg: SimConfig = serde_json::from_str(THREE_DEPENDENCIES).unwrap();
    let t = run(&cfg).unwrap();
    assert_eq!(t.outcomes.total(), t.sent);
    let names: Vec<&str> = t.dependencies.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["inventory", "payments", "shipping"]);
    let calls: Vec<u64> = t.dependencies.iter().map(|d| d.totals.calls).collect();
    // Each dependency is called once the one before answered: never more calls downstream.
    assert!(calls.windows(2).all(|w| w[1] <= w[0]), "{calls:?}");
    let shipping = &t.dependencies[2];
    assert!(shipping.totals.calls > 0, "{calls:?}");
    // Every call to shipping after 6 s fails, and each such request ends as a dependency
    // error counted at shipping (the only dependency with an error rate).
    assert!(shipping.totals.errors > 0);
    assert_eq!(shipping.totals.errors, t.outcomes.dependency_error);
    // Per bucket, the calls of each dependency add up to its total.
    for d in &t.dependencies {
        assert_eq!(
            d.calls_per_bucket.iter().sum::<u64>(),
            d.totals.calls,
            "{}",
            d.name
        );
    }
    // Without shipping the same run has no dependency errors at all.
    let mut two = cfg.clone();
    two.dependencies.pop();
    let t2 = run(&two).unwrap();
    assert_eq!(t2.outcomes.dependency_error, 0);
    assert_eq!(t2.dependencies.len(), 2);
}

#[test]
fn a_grouped_config_names_the_dependency_that_is_out_of_range() {
    let mut cfg: SimConfig = serde_json::from_str(THREE_DEPENDENCIES).unwrap();
    cfg.dependencies[2].stack.timeout = Some(5);
    let e = cfg.validate().unwrap_err();
    assert_eq!(e.field, "timeout");
    assert!(e.to_string().contains("dependency shipping"), "{e}");
    cfg.dependencies[2].stack.timeout = Some(300_000);
    let copy: DependencyConfig = cfg.dependencies[1].clone();
    cfg.dependencies.push(copy);
    let e = cfg.validate().unwrap_err();
    assert_eq!(e.field, "name");
    cfg.dependencies.clear();
    assert_eq!(cfg.validate().unwrap_err().field, "dependencies");
}

#[test]
fn every_preset_runs_the_same_from_its_json() {
    for p in Preset::ALL {
        let mut with_payments = p.config();
        apply_set(&mut with_payments, "payments", "on").unwrap();
        for cfg in [p.config(), with_payments] {
            let json = serde_json::to_string(&cfg).unwrap();
            let back: SimConfig = serde_json::from_str(&json).unwrap();
            assert_eq!(back, cfg, "{}", p.key());
            assert_eq!(run(&cfg).unwrap(), run(&back).unwrap(), "{}", p.key());
        }
    }
}

/// Each preset's config as the flat JSON written before the model was split into rooms.
const OLD_FLAT_CONFIGS: &[(&str, &str)] = &[
    ("none", include_str!("fixtures/old_configs/none.json")),
    ("timeout", include_str!("fixtures/old_configs/timeout.json")),
    ("cb", include_str!("fixtures/old_configs/cb.json")),
    (
        "bulkhead",
        include_str!("fixtures/old_configs/bulkhead.json"),
    ),
    (
        "saturday",
        include_str!("fixtures/old_configs/saturday.json"),
    ),
    (
        "ex1-budget",
        include_str!("fixtures/old_configs/ex1-budget.json"),
    ),
    (
        "ex2-business-errors",
        include_str!("fixtures/old_configs/ex2-business-errors.json"),
    ),
    (
        "ex3-retry-layers",
        include_str!("fixtures/old_configs/ex3-retry-layers.json"),
    ),
    (
        "northwind-shared",
        include_str!("fixtures/old_configs/northwind-shared.json"),
    ),
    (
        "northwind-separate",
        include_str!("fixtures/old_configs/northwind-separate.json"),
    ),
    (
        "cb+payments",
        include_str!("fixtures/old_configs/cb+payments.json"),
    ),
    (
        "lesson-four-fields",
        include_str!("fixtures/old_configs/lesson-four-fields.json"),
    ),
];

#[test]
fn old_flat_configs_still_load_and_run_as_before() {
    // The files of the lesson's presets from before the rooms, and two more: payments on,
    // and a file with the lesson's four fields only.
    let extra = ["cb+payments", "lesson-four-fields"];
    for (key, _) in OLD_FLAT_CONFIGS {
        assert!(Preset::parse(key).is_some() || extra.contains(key), "{key}");
    }
    for (key, text) in OLD_FLAT_CONFIGS {
        let loaded = load_config_json(text).unwrap_or_else(|e| panic!("{key}: {e}"));
        let flat: CascadeConfig = serde_json::from_str(text).unwrap();
        assert_eq!(loaded, flat.to_sim(), "{key}");
        let expected = match (*key, Preset::parse(key)) {
            (_, Some(p)) => p.config(),
            ("cb+payments", _) => {
                let mut c = Preset::parse("cb").unwrap().config();
                apply_set(&mut c, "payments", "on").unwrap();
                c
            }
            _ => SimConfig::default(),
        };
        assert_eq!(flat.to_sim(), expected, "{key}");
        assert_eq!(run(&loaded).unwrap(), run(&expected).unwrap(), "{key}");
    }
}

#[test]
fn a_config_file_may_be_flat_or_grouped_and_a_bad_one_is_named() {
    let grouped = load_config_json(THREE_DEPENDENCIES).unwrap();
    assert_eq!(grouped.dependencies.len(), 3);
    let e = load_config_json(r#"{"rate": 100.0, "threads": 32}"#).unwrap_err();
    assert!(e.contains("missing field `duration`"), "{e}");
    let mut flat: serde_json::Value = serde_json::from_str(OLD_FLAT_CONFIGS[0].1).unwrap();
    flat["colour"] = 1.into();
    let e = load_config_json(&flat.to_string()).unwrap_err();
    assert!(e.contains("unknown field `colour`"), "{e}");
    // A layer its room declares is read under its key, a bad value named by its path.
    let flat = flat.as_object_mut().unwrap();
    flat.remove("colour");
    flat.insert(
        "hedge".into(),
        serde_json::json!({"policy": {"delay": {"Fixed": -1}, "max_hedges": 1}, "idempotency_key": true}),
    );
    let e = load_config_json(&serde_json::Value::from(flat.clone()).to_string()).unwrap_err();
    assert!(e.contains("hedge.policy.delay"), "{e}");
    let e =
        load_config_json(r#"{"run": {"seed": 0, "drain": true}, "dependencies": []}"#).unwrap_err();
    assert!(e.contains("traffic"), "{e}");
    assert!(load_config_json("[1, 2]").is_err());
}

#[test]
fn the_stack_order_is_data_and_only_a_profiles_order_reads() {
    let cfg: SimConfig = serde_json::from_str(THREE_DEPENDENCIES).unwrap();
    let mut file = serde_json::to_value(&cfg).unwrap();
    let order = &mut file["dependencies"][0]["stack"]["order"];
    assert_eq!(
        order[0], "bulkhead",
        "a file writes the profile as its order"
    );
    order.as_array_mut().unwrap().reverse();
    let e = load_config_json(&file.to_string()).unwrap_err().to_string();
    assert!(e.contains("stack_order") && e.contains("lesson 000"), "{e}");
    // A name no pattern is written with is refused, naming every one that is.
    file["dependencies"][0]["stack"]["order"][0] = "retries".into();
    let e = load_config_json(&file.to_string()).unwrap_err().to_string();
    assert!(e.contains("order") && e.contains("`retries`"), "{e}");
    assert!(
        e.contains("`retry`, `retry_budget`") && e.contains("`adaptive_limit`"),
        "{e}"
    );
    let t = run(&cfg).unwrap();
    assert!(t.outcomes.get(Outcome::DependencyError) > 0);
}

#[test]
fn a_stack_refuses_a_key_it_does_not_have_and_names_a_bad_librarys_setting() {
    let cfg: SimConfig = serde_json::from_str(THREE_DEPENDENCIES).unwrap();
    let mut file = serde_json::to_value(&cfg).unwrap();
    let stack = &mut file["dependencies"][0]["stack"];
    stack["hedg"] = serde_json::json!({"delay": 80000});
    let e = load_config_json(&file.to_string()).unwrap_err();
    assert!(e.contains("dependencies[0].stack"), "{e}");
    assert!(e.contains("unknown field `hedg`"), "{e}");
    for key in [
        "order",
        "resilience4j",
        "breaker",
        "hedge",
        "adaptive_limit",
    ] {
        assert!(e.contains(&format!("`{key}`")), "{key}: {e}");
    }
    // A layer its room declares is read under its own key, a bad value named by its path.
    let stack = &mut file["dependencies"][0]["stack"];
    stack.as_object_mut().unwrap().remove("hedg");
    stack["adaptive_limit"] = serde_json::json!({"initial": "many"});
    let e = load_config_json(&file.to_string()).unwrap_err();
    assert!(
        e.contains("dependencies[0].stack") && e.contains("adaptive_limit.initial"),
        "{e}"
    );

    let mut file = serde_json::to_value(&cfg).unwrap();
    let stack = &mut file["dependencies"][0]["stack"];
    stack["order"] = serde_json::json!(["retry", "breaker", "timeout", "bulkhead"]);
    stack["resilience4j"] = serde_json::json!({"retry_exceptions": 7});
    let e = load_config_json(&file.to_string()).unwrap_err();
    assert!(
        e.contains("dependencies[0].stack") && e.contains("resilience4j.retry_exceptions"),
        "{e}"
    );
}

#[test]
fn a_layers_error_names_its_set_key() {
    let field = |edit: &dyn Fn(&mut SimConfig)| {
        let mut c = Preset::parse("cb").unwrap().config();
        edit(&mut c);
        c.validate().unwrap_err().field
    };
    let breaker = |c: &mut SimConfig| {
        c.first_stack_mut()
            .breaker
            .as_mut()
            .unwrap()
            .half_open_probes = 0
    };
    assert_eq!(field(&breaker), "probes");
    let base = |c: &mut SimConfig| {
        apply_set(c, "attempts", "3").unwrap();
        c.first_stack_mut().retry.as_mut().unwrap().base = 0;
    };
    assert_eq!(field(&base), "retry_base");
    let cap = |c: &mut SimConfig| {
        apply_set(c, "attempts", "3").unwrap();
        c.first_stack_mut().retry.as_mut().unwrap().cap = 1;
    };
    assert_eq!(field(&cap), "retry_cap");
    let ratio = |c: &mut SimConfig| {
        apply_set(c, "retry_budget_ratio", "0.1").unwrap();
        c.first_stack_mut().retry_budget.as_mut().unwrap().ratio = 2.0;
    };
    assert_eq!(field(&ratio), "retry_budget_ratio");
    // Payments' own keys; an unknown payments_* key is refused, never written elsewhere.
    let payments_probes = |c: &mut SimConfig| {
        apply_set(c, "payments", "on").unwrap();
        c.dependencies[1].stack.breaker.as_mut().unwrap().min_calls = 0;
    };
    assert_eq!(field(&payments_probes), "payments_min_calls");
    let mut c = Preset::parse("cb").unwrap().config();
    let e = apply_set(&mut c, "payments_probes", "3").unwrap_err();
    assert_eq!((e.field, e.value.as_str()), ("key", "payments_probes"));
    assert_eq!(c, Preset::parse("cb").unwrap().config());
}
