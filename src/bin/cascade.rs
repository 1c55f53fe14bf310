//! `cascade`: the lesson's cascade simulation on the command line. The program is the CLI
//! crate's (`crates/cli`); this binary of the playground's crate only starts it, so the
//! tests under `tests/` run it as they always have.

// For wasm32 (`cargo build --target wasm32-unknown-unknown` builds every binary) it is an
// empty program.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    resilience_cli::main()
}
