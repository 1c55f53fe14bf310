//! `cascade`: the lesson's cascade simulation on the command line, a crate of its own above the
//! teaching logic (the binary, `src/bin/cascade.rs`, only calls [`main`]).
//!
//! With no arguments it runs the four scenarios of the lesson and prints one line each, in the
//! style of the lesson's table. Bad input prints one line on stderr and exits with status 2.

// A native program: for wasm32 the crate is empty, and clap stays out of the wasm.

/// Reads the command line, runs what it asks and prints it; the exit status says whether the
/// input was good.
#[cfg(not(target_arch = "wasm32"))]
pub fn main() -> std::process::ExitCode {
    native::main()
}

#[cfg(not(target_arch = "wasm32"))]
mod native {

    use std::process::ExitCode;

    use clap::error::ErrorKind;
    use clap::{CommandFactory, FromArgMatches, Parser};

    use resilience_teaching::library_config::compare as library_compare;
    use resilience_teaching::library_config::resilience4j_run::apply_yaml;
    use resilience_teaching::library_config::{envoy, grpc, polly};
    use resilience_teaching::page::lessons::check as lesson_check;
    use resilience_teaching::page::lessons::live::Live;
    use resilience_teaching::page::life_story;
    use resilience_teaching::page::runs::Run;
    use resilience_teaching::resilience::ParamError;
    use resilience_teaching::sim::config_file::ConfigFile;
    use resilience_teaching::sim::experiments;
    use resilience_teaching::sim::model::{run, Abandon, HistoryBulkhead, SimConfig};
    use resilience_teaching::sim::params::PARAMS;
    use resilience_teaching::sim::pick::{follow_pick, Pick};
    use resilience_teaching::sim::scenario::{apply_set, Applied, Preset, Scenario, SET_KEYS};
    use resilience_teaching::sim::trace::{Outcome, Trace};

    /// What one line of output runs.
    #[derive(Clone)]
    enum Source {
        Preset(Preset),
        Config {
            path: String,
            config: Box<SimConfig>,
        },
    }

    impl Source {
        fn key(&self) -> String {
            match self {
                Source::Preset(p) => p.key().to_string(),
                Source::Config { .. } => "config".to_string(),
            }
        }

        fn label(&self, cfg: &SimConfig) -> String {
            match self {
                Source::Preset(Preset::Lesson(s)) => s.label(cfg),
                Source::Preset(p) => p.key().to_string(),
                Source::Config { path, .. } => path.clone(),
            }
        }

        fn config(&self) -> SimConfig {
            match self {
                Source::Preset(p) => p.config(),
                Source::Config { config, .. } => (**config).clone(),
            }
        }
    }

    fn load_config(path: &str) -> Result<SimConfig, String> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            format!("--config {path}: cannot read the file ({e}) (allowed: a readable JSON file)")
        })?;
        let config = ConfigFile::parse(&text).map_err(|e| {
            format!("--config {path}: {e} (allowed: a JSON object, flat or grouped)")
        })?;
        config
            .validate()
            .map_err(|e| format!("--config {path}: {e}"))?;
        Ok(config.into_sim())
    }

    const USAGE: &str = "\
usage: cascade [run] [--scenario LIST] [--preset LIST] [--config FILE.json] [--set key=value]...
                     [--resilience4j FILE.yml] [--envoy FILE.yaml] [--polly FILE.json]
                     [--grpc FILE.json] [--compare-libraries]
                     [--no-drain] [--trace slowest|ID] [--json]
       cascade trace PICK [the flags of run]   (one request of each run, hop by hop)
       cascade experiment contention|metastability [--set key=value]... [--json]   (see its --help)
       cascade lesson check FILE.md...   (a lesson file: each step run, every mistake by line)

Runs the lesson's cascade: 100 requests/s for 12 s into 32 workers; inventory takes 40 ms,
then 4 s from second 3. Scenarios: none (no protection), timeout (300 ms), cb (timeout +
circuit breaker), bulkhead (timeout + breaker + bulkhead of 8).";

    /// What the usage says after the flags.
    const USAGE_TIMES: &str = "\
p50/p99 are service times (from when a worker takes the request, as the lesson prints);
the JSON also gives end-to-end times (from arrival, queue wait included).";

    /// Widest line of the usage's key list.
    const USAGE_WIDTH: usize = 96;

    /// The flags of `run`, as [`Flags`] declares them: each long name with its value's name.
    fn flags() -> Vec<(String, String)> {
        let command = <Flags as clap::Args>::augment_args(clap::Command::new("run"));
        command
            .get_arguments()
            .filter_map(|arg| {
                let long = arg.get_long()?;
                let value = arg
                    .get_value_names()
                    .filter(|_| arg.get_action().takes_values())
                    .and_then(|names| names.first())
                    .map_or(String::new(), |n| format!(" {n}"));
                let help = arg.get_help().map_or(String::new(), ToString::to_string);
                Some((format!("--{long}{value}"), help))
            })
            .collect()
    }

    /// `words` wrapped to [`USAGE_WIDTH`], its first line after `head` (padded to the text's
    /// column, or on a line of its own when longer), the others at that column.
    fn wrapped(head: &str, words: &str, column: usize) -> String {
        let mut text = String::new();
        let mut line = if head.len() < column {
            format!("{head:<column$}")
        } else {
            text.push_str(head.trim_end());
            text.push('\n');
            " ".repeat(column)
        };
        for word in words.split(' ') {
            if line.len() + 1 + word.len() > USAGE_WIDTH && line.trim().len() > head.trim().len() {
                text.push_str(line.trim_end());
                text.push('\n');
                line = " ".repeat(column);
            } else if !line.ends_with(' ') {
                line.push(' ');
            }
            line.push_str(word);
        }
        text.push_str(line.trim_end());
        text
    }

    /// The usage: the flags (each with its doc from [`Flags`]), every preset with its title,
    /// then every key of the parameter table with its range and doc.
    fn usage() -> String {
        let mut text = USAGE.to_string();
        text.push('\n');
        for (flag, help) in flags() {
            text.push('\n');
            text.push_str(&wrapped(&format!("  {flag}"), &help, 20));
        }
        text.push_str("\n\n");
        text.push_str(USAGE_TIMES);
        text.push_str("\n\nPresets of --preset:");
        for p in Preset::ALL {
            text.push_str(&format!("\n  {:<31} {}", p.key(), p.title()));
        }
        text.push_str("\n\nKeys of --set (times in seconds, or a number with an ms suffix):");
        for p in PARAMS {
            text.push('\n');
            text.push_str(&wrapped(&format!("  {}", p.key), &p.summary(), 22));
        }
        text
    }

    /// The command line as clap reads it: a subcommand, or the flags of `run` alone
    /// (`cascade --preset cb` is `cascade run --preset cb`). `--help` prints [`usage`], made
    /// from the tables of presets and keys.
    #[derive(Parser, Debug)]
    #[command(
        name = "cascade",
        disable_help_flag = true,
        disable_version_flag = true,
        args_override_self = true,
        args_conflicts_with_subcommands = true
    )]
    struct Cli {
        #[command(subcommand)]
        command: Option<Command>,
        #[command(flatten)]
        flags: Flags,
    }

    /// What `cascade` does.
    #[derive(clap::Subcommand, Debug)]
    enum Command {
        /// Runs scenarios, presets or a config file, a line each (what `cascade` alone does).
        #[command(disable_help_flag = true)]
        Run(Flags),
        /// Follows one request of each run, hop by hop (`--trace PICK` of `run`).
        #[command(disable_help_flag = true)]
        Trace {
            /// Which request.
            #[arg(value_name = "PICK", value_parser = trace_pick)]
            pick: Pick,
            #[command(flatten)]
            flags: Flags,
        },
        /// A lesson file: `check`.
        #[command(disable_help_flag = true)]
        Lesson {
            /// What to do with it.
            #[command(subcommand)]
            action: Option<LessonAction>,
            /// The usage.
            #[arg(short = 'h', long)]
            help: bool,
        },
        /// An experiment: contention or metastability.
        #[command(disable_help_flag = true)]
        Experiment {
            /// Which one.
            #[arg(value_name = "NAME")]
            name: Option<String>,
            /// `key=value` settings.
            #[arg(long = "set", value_name = "KEY=VALUE", value_parser = key_value, allow_hyphen_values = true)]
            set: Vec<(String, String)>,
            /// JSON lines.
            #[arg(long)]
            json: bool,
            /// The usage.
            #[arg(short = 'h', long)]
            help: bool,
        },
    }

    /// What `cascade lesson` does with a file.
    #[derive(clap::Subcommand, Debug)]
    enum LessonAction {
        /// Reads each file as the page does and runs each step.
        #[command(disable_help_flag = true)]
        Check {
            /// The lesson files.
            #[arg(value_name = "FILE.md")]
            files: Vec<String>,
        },
    }

    /// The flags of `run` (and of `trace`). Each value is checked by the function its
    /// `value_parser` names, with the messages users know.
    #[derive(clap::Args, Debug)]
    struct Flags {
        /// comma-separated scenarios to run (default: all four)
        #[arg(long, value_name = "LIST", value_parser = scenario_list)]
        scenario: Vec<Vec<Preset>>,
        /// comma-separated presets (their keys are below)
        #[arg(long, value_name = "LIST", value_parser = preset_list)]
        preset: Vec<Vec<Preset>>,
        /// a whole configuration as JSON: grouped (run, traffic, gateway, service, routes,
        /// dependencies), or flat as older files have it; --set and --resilience4j apply on
        /// top of it as on a preset
        #[arg(long, value_name = "FILE")]
        config: Vec<String>,
        /// a Spring Boot `resilience4j:` block (circuitbreaker, retry, bulkhead, timelimiter
        /// instances): lesson 004's annotated reserveStock runs with the
        /// `inventoryReservation` instances under Resilience4j's semantics, on each preset
        /// given (default: northwind-as-written-separate); a bulkhead `orderHistoryLookup`
        /// gives order history its own. What is not simulated is printed as a notice on
        /// stderr (the last file given counts)
        #[arg(long, value_name = "FILE.yml")]
        resilience4j: Vec<String>,
        /// an Envoy (or Istio) configuration: a route's retry_policy and timeout, a cluster's
        /// circuit_breakers and outlier_detection, wherever they sit in the YAML; inventory is
        /// called through an Envoy sidecar with them, on each preset given (default:
        /// saturday). What is not simulated is printed as a notice on stderr (the last file
        /// given counts)
        #[arg(long, value_name = "FILE.yaml")]
        envoy: Vec<String>,
        /// the options .NET's HTTP standard resilience handler binds from appsettings.json
        /// (Retry, CircuitBreaker, AttemptTimeout, TotalRequestTimeout, RateLimiter, wherever
        /// that section sits): inventory is called through Polly v8's pipeline with them, on
        /// each preset given (default: saturday). What is not simulated is printed as a notice
        /// on stderr (the last file given counts)
        #[arg(long, value_name = "FILE.json")]
        polly: Vec<String>,
        /// a gRPC service config (methodConfig with its timeout and retryPolicy, and
        /// retryThrottling): inventory is called over a gRPC channel with the first method
        /// config, on each preset given (default: saturday). What is not simulated is printed
        /// as a notice on stderr (the last file given counts)
        #[arg(long, value_name = "FILE.json")]
        grpc: Vec<String>,
        /// run one intent ("retry twice with back-off, give up on a slow dependency, stop
        /// calling it when it fails") as lesson 000, Resilience4j and Envoy each write it, side
        /// by side on each preset given (default: saturday) and its seed, then say where they
        /// differ
        #[arg(long)]
        compare_libraries: bool,
        /// override a parameter (repeatable; the keys are below)
        #[arg(long = "set", value_name = "KEY=VALUE", value_parser = key_value, allow_hyphen_values = true)]
        set: Vec<(String, String)>,
        /// stop at the end of `duration`; requests left are counted as unfinished (default:
        /// drain, as the lesson's code does)
        #[arg(long)]
        no_drain: bool,
        /// follow one request of each run, hop by hop: where its time went, then each span
        /// and moment in order. PICK is slowest, retried, fell-back, refused-by-breaker,
        /// stuck-lookup (the slowest of that kind) or an arrival number (0 is the first
        /// request sent); the page's `trace=` takes the same
        #[arg(long, value_name = "PICK", value_parser = trace_pick)]
        trace: Option<Pick>,
        /// one JSON object per scenario per line
        #[arg(long)]
        json: bool,
        /// this text
        #[arg(short = 'h', long)]
        help: bool,
    }

    /// The flags, as the usage's error lines list them.
    fn flag_names() -> String {
        flags()
            .iter()
            .map(|(flag, _)| flag.split(' ').next().unwrap_or_default().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn trace_pick(text: &str) -> Result<Pick, String> {
        Pick::parse(text)
    }

    fn scenario_list(list: &str) -> Result<Vec<Preset>, String> {
        list.split(',')
            .map(|name| {
                Scenario::parse(name.trim())
                    .map(Preset::Lesson)
                    .ok_or_else(|| {
                        format!("unknown scenario '{name}' (allowed: none, timeout, cb, bulkhead)")
                    })
            })
            .collect()
    }

    fn preset_list(list: &str) -> Result<Vec<Preset>, String> {
        list.split(',')
            .map(|name| {
                Preset::parse(name.trim()).ok_or_else(|| {
                    let all: Vec<&str> = Preset::ALL.iter().map(|p| p.key()).collect();
                    format!("unknown preset '{name}' (allowed: {})", all.join(", "))
                })
            })
            .collect()
    }

    fn key_value(kv: &str) -> Result<(String, String), String> {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("expected key=value, got '{kv}'"))?;
        Ok((k.trim().to_string(), v.trim().to_string()))
    }

    /// A clap error as one line: its message, clap's tip (a flag spelled nearly so), and the
    /// flags allowed when the message does not say what is.
    fn one_line(e: &clap::Error) -> String {
        let rendered = e.render().to_string();
        let mut lines = rendered.lines().map(str::trim).filter(|l| !l.is_empty());
        let mut line = lines
            .next()
            .unwrap_or_default()
            .trim_start_matches("error: ")
            .to_string();
        let tips: Vec<&str> = lines.filter_map(|l| l.strip_prefix("tip: ")).collect();
        if !tips.is_empty() {
            line.push_str(&format!(" ({})", tips.join("; ")));
        }
        let says_what_is_allowed = line.contains("(allowed") || line.contains("expected key=value");
        if matches!(
            e.kind(),
            ErrorKind::UnknownArgument | ErrorKind::InvalidValue
        ) && !says_what_is_allowed
        {
            line.push_str(&format!(" (allowed: {})", flag_names()));
        }
        if e.kind() == ErrorKind::InvalidSubcommand {
            line.push_str(&format!(
                " (allowed: run, trace, experiment, lesson, or the flags of run: {})",
                flag_names()
            ));
        }
        line
    }

    struct Args {
        sources: Vec<Source>,
        /// A library's configuration (`--resilience4j`, `--envoy`, `--polly`): the flag, the
        /// file's path and its text.
        library: Option<(&'static str, String, String)>,
        /// `--compare-libraries`.
        compare_libraries: bool,
        sets: Vec<(String, String)>,
        drain: bool,
        trace: Option<Pick>,
        json: bool,
        help: bool,
    }

    /// What the command line asks for.
    enum Invocation {
        Run(Args),
        Lesson(Vec<String>),
        LessonUsage,
        Experiment {
            name: String,
            sets: Vec<(String, String)>,
            json: bool,
            help: bool,
        },
    }

    /// `--experiment NAME` (or `--experiment=NAME`), as older scripts write it, is
    /// `experiment NAME`.
    fn older_experiment_form(argv: &[String]) -> Vec<String> {
        let Some(i) = argv
            .iter()
            .position(|a| a == "--experiment" || a.starts_with("--experiment="))
        else {
            return argv.to_vec();
        };
        let mut rest = argv.to_vec();
        let flag = rest.remove(i);
        let name = match flag.split_once('=') {
            Some((_, name)) => Some(name.to_string()),
            None => (i < rest.len()).then(|| rest.remove(i)),
        };
        std::iter::once("experiment".to_string())
            .chain(name)
            .chain(rest)
            .collect()
    }

    fn parse_command(argv: &[String]) -> Result<Invocation, String> {
        let argv = older_experiment_form(argv);
        let matches = Cli::command()
            .try_get_matches_from(std::iter::once("cascade".to_string()).chain(argv))
            .map_err(|e| one_line(&e))?;
        let cli = Cli::from_arg_matches(&matches).map_err(|e| one_line(&e))?;
        let sub = |name: &str| matches.subcommand_matches(name).unwrap_or(&matches);
        match cli.command {
            None => args_of(&matches, cli.flags, None).map(Invocation::Run),
            Some(Command::Run(flags)) => args_of(sub("run"), flags, None).map(Invocation::Run),
            Some(Command::Trace { pick, flags }) => {
                args_of(sub("trace"), flags, Some(pick)).map(Invocation::Run)
            }
            Some(Command::Lesson { help: true, .. }) => Ok(Invocation::LessonUsage),
            Some(Command::Lesson {
                action: Some(LessonAction::Check { files }),
                ..
            }) if !files.is_empty() => Ok(Invocation::Lesson(files)),
            Some(Command::Lesson { .. }) => Err(format!(
                "lesson: expected `check` and a file ({LESSON_USAGE})"
            )),
            Some(Command::Experiment {
                name,
                set,
                json,
                help,
            }) => match name {
                Some(name) => Ok(Invocation::Experiment {
                    name,
                    sets: set,
                    json,
                    help,
                }),
                None => Err(experiments::cli::unknown_experiment("")),
            },
        }
    }

    /// The last file a library flag names (`--envoy`, `--resilience4j`): its path and text.
    fn read_last(flag: &str, paths: &[String]) -> Result<Option<(String, String)>, String> {
        let Some(path) = paths.last() else {
            return Ok(None);
        };
        let text = std::fs::read_to_string(path).map_err(|e| {
            format!("{flag} {path}: cannot read the file ({e}) (allowed: a readable text file)")
        })?;
        Ok(Some((path.clone(), text)))
    }

    /// The run's arguments from what clap read of them (`matches`: the run's own, for the
    /// order in which the sources were given).
    fn args_of(
        matches: &clap::ArgMatches,
        flags: Flags,
        pick: Option<Pick>,
    ) -> Result<Args, String> {
        // The sources in the order they were given, whatever their flag.
        let at = |id: &str| -> Vec<usize> {
            matches
                .indices_of(id)
                .map(Iterator::collect)
                .unwrap_or_default()
        };
        let mut given: Vec<(usize, Vec<Source>)> = Vec::new();
        for (i, list) in at("scenario").into_iter().zip(flags.scenario) {
            given.push((i, list.into_iter().map(Source::Preset).collect()));
        }
        for (i, list) in at("preset").into_iter().zip(flags.preset) {
            given.push((i, list.into_iter().map(Source::Preset).collect()));
        }
        for (i, path) in at("config").into_iter().zip(flags.config) {
            let config = load_config(&path)?;
            given.push((
                i,
                vec![Source::Config {
                    path,
                    config: Box::new(config),
                }],
            ));
        }
        given.sort_by_key(|(i, _)| *i);
        let explicit = !given.is_empty();
        let mut sources: Vec<Source> = given.into_iter().flat_map(|(_, s)| s).collect();
        let mut libraries = Vec::new();
        for (flag, paths) in [
            ("--resilience4j", &flags.resilience4j),
            ("--envoy", &flags.envoy),
            ("--polly", &flags.polly),
            ("--grpc", &flags.grpc),
        ] {
            if let Some((path, text)) = read_last(flag, paths)? {
                libraries.push((flag, path, text));
            }
        }
        if libraries.len() > 1 {
            let given: Vec<&str> = libraries.iter().map(|(flag, _, _)| *flag).collect();
            return Err(format!(
                "{}: give one library's configuration (allowed: one of --resilience4j, --envoy, \
                 --polly and --grpc)",
                given.join(" and ")
            ));
        }
        let library = libraries.pop();
        if flags.compare_libraries && (library.is_some() || pick.is_some()) {
            return Err(
                "--compare-libraries writes inventory's stack for each library itself \
                        (allowed: without --resilience4j, --envoy, --polly, --grpc and trace)"
                    .to_string(),
            );
        }
        let resilience4j = library
            .as_ref()
            .is_some_and(|(f, _, _)| *f == "--resilience4j");
        if !explicit && ((library.is_some() && !resilience4j) || flags.compare_libraries) {
            sources = vec![Source::Preset(Preset::Saturday)];
        } else if !explicit && resilience4j {
            sources = vec![Source::Preset(Preset::NorthwindAsWrittenSeparate)];
        } else if !explicit {
            sources = Scenario::ALL
                .iter()
                .map(|&s| Source::Preset(Preset::Lesson(s)))
                .collect();
        }
        Ok(Args {
            sources,
            library,
            compare_libraries: flags.compare_libraries,
            sets: flags.set,
            drain: !flags.no_drain,
            trace: pick.or(flags.trace),
            json: flags.json,
            help: flags.help,
        })
    }

    fn describe(e: &ParamError, key: &str) -> String {
        if e.field == "key" {
            format!(
                "--set: unknown key '{key}' (allowed: {})",
                SET_KEYS.join(", ")
            )
        } else {
            format!(
                "--set {}: '{}' is out of range or malformed (allowed: {})",
                e.field, e.value, e.range
            )
        }
    }

    /// The label and the config of one line of output, overrides applied (to a preset or a
    /// config file alike).
    fn config_for(s: &Source, args: &Args) -> Result<(String, SimConfig), String> {
        let mut c = s.config();
        let mut label = None;
        if !args.drain {
            c.run.drain = false;
        }
        if let Some((flag, path, text)) = &args.library {
            let notices = match *flag {
                "--resilience4j" => apply_yaml(text, &mut c),
                "--envoy" => envoy::apply_yaml(text, &mut c),
                "--grpc" => grpc::apply_json(text, &mut c),
                _ => polly::apply_json(text, &mut c),
            }
            .map_err(|n| format!("{flag} {path}: {n}"))?;
            for n in notices {
                eprintln!("cascade: {flag} {path}: notice: {n}");
            }
            label = Some(format!("{} with {path}", s.key()));
        }
        for (k, v) in &args.sets {
            let applied = apply_set(&mut c, k, v).map_err(|e| describe(&e, k))?;
            if applied != Applied::Set {
                eprintln!("cascade: --set {applied} (scenario {})", s.key());
            }
        }
        let label = label.unwrap_or_else(|| s.label(&c));
        c.validate()
            .map_err(|e| format!("{} (scenario {})", e, s.key()))?;
        Ok((label, c))
    }

    fn ms(v: Option<u64>) -> f64 {
        v.map_or(0.0, |m| m as f64 / 1_000.0)
    }

    fn table_line(label: &str, t: &Trace) -> String {
        let counts: Vec<String> = Outcome::ALL
            .iter()
            .filter(|&&o| t.outcomes.get(o) > 0)
            .map(|&o| format!("{}={}", o.name(), t.outcomes.get(o)))
            .collect();
        let payments = t.payments.as_ref().map_or(String::new(), |p| {
            format!(
                "  [payments calls={} timeout={} rejected={} error={}]",
                p.calls, p.timeouts, p.rejected, p.errors
            )
        });
        format!(
            "{:<34} sent={:4}  {}  p50={:6.0}ms p99={:6.0}ms{}",
            label,
            t.sent,
            counts.join("  "),
            ms(t.service.p50),
            ms(t.service.p99),
            payments
        )
    }

    fn json_line(s: &Source, cfg: &SimConfig, t: &Trace) -> String {
        let opt_ms = |v: Option<u64>| v.map(|m| m as f64 / 1_000.0);
        let mut line = serde_json::Map::new();
        line.insert("scenario".into(), s.key().into());
        line.insert("sent".into(), t.sent.into());
        for o in Outcome::ALL.into_iter().filter(|&o| t.could_end_in(o)) {
            line.insert(o.name().into(), t.outcomes.get(o).into());
        }
        for (key, value) in t.pattern_figures() {
            line.insert(key, value.into());
        }
        let figures = [
            ("p50_ms", opt_ms(t.service.p50)),
            ("p99_ms", opt_ms(t.service.p99)),
            ("e2e_p50_ms", opt_ms(t.end_to_end.p50)),
            ("e2e_p99_ms", opt_ms(t.end_to_end.p99)),
            ("first_open_ms", opt_ms(t.first_open())),
        ];
        for (key, value) in figures {
            line.insert(key.into(), serde_json::json!(value));
        }
        let inventory_calls: u64 = t.series.iter().map(|b| b.inventory_calls).sum();
        line.insert("inventory_calls".into(), inventory_calls.into());
        line.insert("library_retries".into(), t.library_retries.into());
        line.insert("sidecar_retries".into(), t.sidecar_retries.into());
        line.insert("frontend_retries".into(), t.frontend_retries.into());
        line.insert("gateway_retries".into(), t.gateway_retries.into());
        line.insert("stale_work".into(), t.stale_work.into());
        if let Some(kind) = cfg.service.fallback.as_ref().and_then(|p| p.on_failure()) {
            line.insert("fallback_kind".into(), kind.label().into());
        }
        if let Some(p) = &t.payments {
            // Which dependency the failures happened at: these are the requests that failed at
            // payments, already counted in `timeout`, `circuit_open`, `bulkhead_full`, ...
            line.insert("payments_calls".into(), p.calls.into());
            line.insert("payments_timeouts".into(), p.timeouts.into());
            line.insert("payments_rejected".into(), p.rejected.into());
            line.insert("payments_errors".into(), p.errors.into());
            line.insert(
                "payments_first_open_ms".into(),
                serde_json::json!(opt_ms(p.first_open())),
            );
        }
        if let Some(o) = t.orders {
            line.insert("orders_created".into(), o.created.into());
            line.insert("duplicates".into(), o.duplicates.into());
            line.insert("duplicates_recognised".into(), o.recognised.into());
        }
        if let Some(r) = t.recovery {
            line.insert(
                "recovered_ms".into(),
                serde_json::json!(opt_ms(r.recovered_after)),
            );
        }
        if cfg.service.abandon == Abandon::Drop {
            line.insert("stale_skipped".into(), t.stale_skipped.into());
        }
        for d in &t.dependencies {
            let Some(load) = &d.load else { continue };
            let name = &d.name;
            let counts = [
                ("served", load.served),
                ("goodput", load.goodput),
                ("served_late", load.served_late),
                ("dropped", load.dropped),
                ("refused", load.refused),
            ];
            for (key, value) in counts {
                line.insert(format!("{name}_{key}"), value.into());
            }
            line.insert(
                format!("{name}_wait_p99_ms"),
                serde_json::json!(opt_ms(load.wait.p99)),
            );
            if let Some(conflicts) = load.conflicts {
                line.insert(format!("{name}_conflicts"), conflicts.into());
            }
            if let Some(cached) = load.cached {
                line.insert(format!("{name}_cached"), cached.into());
            }
            let peak_queue = load.queue_per_bucket.iter().max().copied().unwrap_or(0);
            line.insert(format!("{name}_peak_queue"), peak_queue.into());
        }
        // Order lookups outside every bulkhead (the story presets) are there to show what the
        // inventory bulkhead protects, so those runs give each route's own end-to-end p50/p99;
        // every other run prints its routes as it always has.
        let route_latency =
            cfg.routes.history_share > 0.0 && cfg.routes.history_bulkhead == HistoryBulkhead::None;
        let routes: serde_json::Map<String, serde_json::Value> = t
            .routes
            .iter()
            .map(|r| {
                let mut v = serde_json::to_value(r.outcomes).unwrap_or_default();
                v["sent"] = r.sent.into();
                v["success_rate"] = serde_json::json!(r.success_rate());
                if route_latency {
                    v["e2e_p50_ms"] = serde_json::json!(opt_ms(r.end_to_end.p50));
                    v["e2e_p99_ms"] = serde_json::json!(opt_ms(r.end_to_end.p99));
                }
                (r.route.name().to_string(), v)
            })
            .collect();
        line.insert("routes".into(), routes.into());
        // The same figures a lesson reads (`{queue-peak}`, `@goal p99 < 2s`), by its names.
        if let Ok(run) = Run::of(cfg.clone()) {
            let measures: serde_json::Map<String, serde_json::Value> = Live::at_end(&run)
                .into_iter()
                .map(|(name, value)| {
                    // A count prints as one (`1200`, not `1200.0`).
                    let value = match value {
                        Some(v) if v.fract() == 0.0 && v.abs() < 1e15 => {
                            serde_json::json!(v as i64)
                        }
                        other => serde_json::json!(other),
                    };
                    (name, value)
                })
                .collect();
            line.insert("measures".into(), measures.into());
        }
        if let Some(stack) = cfg.first_stack().filter(|s| s.is_library()) {
            library_figures(&mut line, t, stack.profile.key());
        }
        serde_json::Value::Object(line).to_string()
    }

    /// What a library's run (`resilience4j`, `polly`, `grpc`) adds to its line: the stack, the longest
    /// request (end to end and in service) and the breaker's transitions in the first 60 s.
    fn library_figures(
        line: &mut serde_json::Map<String, serde_json::Value>,
        t: &Trace,
        stack: &str,
    ) {
        let longest = |h: &resilience_teaching::sim::trace::HistogramsByOutcome| {
            h.values()
                .filter_map(|h| h.buckets().last().map(|b| b.0))
                .max()
                .map(|m| m as f64 / 1_000.0)
        };
        line.insert("stack".into(), stack.into());
        line.insert(
            "e2e_max_ms".into(),
            serde_json::json!(longest(&t.end_to_end_histograms)),
        );
        line.insert(
            "service_max_ms".into(),
            serde_json::json!(longest(&t.service_histograms)),
        );
        let transitions: Vec<serde_json::Value> = t
            .transitions
            .iter()
            .filter(|c| c.at <= 60_000_000)
            .map(|c| {
                serde_json::json!({
                    "at_ms": c.at as f64 / 1_000.0,
                    "from": format!("{:?}", c.from),
                    "to": format!("{:?}", c.to),
                })
            })
            .collect();
        line.insert("transitions_60s".into(), transitions.into());
    }

    const LESSON_USAGE: &str = "usage: cascade lesson check FILE.md... (a lesson in the format \
         of docs/lesson-format.md)";

    /// `cascade lesson check FILE...`: each file read and each of its steps run as the page
    /// would; the report on stdout, each mistake on stderr with its line. Exits 0 when every
    /// file is ready to use, 1 when one has a mistake, 2 on a usage or reading error.
    fn lesson_command(files: &[String]) -> ExitCode {
        let mut worst = 0;
        for path in files {
            let text = match std::fs::read_to_string(path) {
                Ok(text) => text,
                Err(e) => {
                    eprintln!("cascade: lesson check {path}: cannot read the file ({e})");
                    worst = 2;
                    continue;
                }
            };
            let checked = lesson_check::check(&text);
            print_lines(
                checked
                    .report
                    .iter()
                    .enumerate()
                    .map(|(i, line)| {
                        if i == 0 {
                            format!("{path}: {line}")
                        } else {
                            line.clone()
                        }
                    })
                    .collect::<Vec<_>>()
                    .iter()
                    .map(String::as_str),
            );
            for error in &checked.errors {
                eprintln!("{path}: {error}");
            }
            if checked.errors.is_empty() {
                print_lines([format!("{path}: ready to use").as_str()]);
            } else {
                worst = worst.max(1);
            }
        }
        ExitCode::from(worst)
    }

    pub fn main() -> ExitCode {
        let argv: Vec<String> = std::env::args().skip(1).collect();
        let args = match parse_command(&argv) {
            Ok(Invocation::Run(args)) => args,
            Ok(Invocation::Lesson(files)) => return lesson_command(&files),
            Ok(Invocation::LessonUsage) => {
                print_lines([LESSON_USAGE]);
                return ExitCode::SUCCESS;
            }
            Ok(Invocation::Experiment {
                name,
                sets,
                json,
                help,
            }) => {
                return match experiments::cli::run_experiment(&name, &sets, json, help) {
                    Ok(lines) => {
                        print_lines(lines.iter().map(String::as_str));
                        ExitCode::SUCCESS
                    }
                    Err(msg) => {
                        eprintln!("cascade: {msg}");
                        ExitCode::from(2)
                    }
                };
            }
            Err(msg) => {
                eprintln!("cascade: {msg}");
                return ExitCode::from(2);
            }
        };
        if args.help {
            print_lines([usage().as_str()]);
            return ExitCode::SUCCESS;
        }
        let mut configs = Vec::new();
        for s in &args.sources {
            match config_for(s, &args) {
                Ok((label, c)) => configs.push((s, label, c)),
                Err(msg) => {
                    eprintln!("cascade: {msg}");
                    return ExitCode::from(2);
                }
            }
        }
        let mut lines = Vec::new();
        if let Some(pick) = args.trace {
            for (s, label, c) in &configs {
                match follow_pick(c, pick) {
                    Ok(life) => lines.push(trace_text(s, label, pick, life.as_ref(), args.json)),
                    Err(e) => {
                        eprintln!("cascade: scenario {}: {e}", s.key());
                        return ExitCode::from(1);
                    }
                }
            }
            print_lines(lines.iter().map(String::as_str));
            return ExitCode::SUCCESS;
        }
        if args.compare_libraries {
            for (s, label, c) in &configs {
                match compare_libraries(s, label, c, args.json) {
                    Ok(mut more) => lines.append(&mut more),
                    Err(e) => {
                        eprintln!("cascade: scenario {}: {e}", s.key());
                        return ExitCode::from(1);
                    }
                }
            }
            print_lines(lines.iter().map(String::as_str));
            return ExitCode::SUCCESS;
        }
        for (s, label, c) in &configs {
            match run(c) {
                Ok(t) if args.json => lines.push(json_line(s, c, &t)),
                Ok(t) => lines.push(table_line(label, &t)),
                Err(e) => {
                    eprintln!("cascade: scenario {}: {e}", s.key());
                    return ExitCode::from(1);
                }
            }
        }
        print_lines(lines.iter().map(String::as_str));
        ExitCode::SUCCESS
    }

    /// The same intent under each library on scenario `s`: a line of figures per library with
    /// how it writes the intent, then where they differ (or a JSON object per library, its
    /// `library` named, as a run's).
    fn compare_libraries(
        s: &Source,
        label: &str,
        c: &SimConfig,
        json: bool,
    ) -> Result<Vec<String>, resilience_teaching::sim::model::RunError> {
        let (runs, skipped) = library_compare::compare(c)?;
        let mut lines = Vec::new();
        if json {
            for r in &runs {
                let mut line: serde_json::Value =
                    serde_json::from_str(&json_line(s, &r.config, &r.trace)).unwrap_or_default();
                line["library"] = r.library.into();
                lines.push(line.to_string());
            }
            for why in skipped {
                eprintln!("cascade: {why}");
            }
            return Ok(lines);
        }
        lines.push(format!("{label}: one intent, each library's way"));
        for r in &runs {
            lines.push(table_line(r.library, &r.trace));
            lines.push(format!("    written as: {}", r.written));
        }
        lines.extend(skipped);
        lines.push("Where they differ:".to_string());
        lines.extend(
            library_compare::differences(&runs)
                .into_iter()
                .map(|d| format!("  - {d}")),
        );
        Ok(lines)
    }

    /// A followed request: its sentence and its spans and moments, one per line (or one JSON
    /// object with the life itself).
    fn trace_text(
        s: &Source,
        label: &str,
        pick: Pick,
        life: Option<&resilience_teaching::sim::life::RequestLife>,
        json: bool,
    ) -> String {
        let Some(life) = life else {
            let none = format!("no request of this run is {}", pick.label());
            return if json {
                serde_json::json!({"scenario": s.key(), "trace": pick.key(), "story": none})
                    .to_string()
            } else {
                format!("{label}: {none}")
            };
        };
        let story = life_story::story(life);
        let lines = life_story::lines(life);
        if json {
            return serde_json::json!({
                "scenario": s.key(),
                "trace": pick.key(),
                "id": life.id,
                "story": story,
                "lines": lines,
                "life": life,
            })
            .to_string();
        }
        let named = match pick {
            Pick::Arrival(_) => String::new(),
            named => format!(" ({})", named.label()),
        };
        let mut text = format!("{label}: request #{}{named}\n{story}", life.id);
        for line in lines {
            text.push_str("\n  ");
            text.push_str(&line);
        }
        text
    }

    /// Writes `lines` to stdout. A reader that stops early (`cascade --json | head -1`) closes
    /// the pipe; what is left is dropped, without the panic `println!` would give.
    fn print_lines<'a>(lines: impl IntoIterator<Item = &'a str>) {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        for line in lines {
            if writeln!(out, "{line}").is_err() {
                return;
            }
        }
        let _ = out.flush();
    }
}
