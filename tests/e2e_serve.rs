//! `trunk serve` as a developer runs it (`make serve`): the page it serves loads with a clean
//! console, its policy admitting the reload script Trunk injects (by a nonce fresh per
//! response) and nothing else inline. Builds into `target/e2e/serve-dist`, so the release
//! build in `dist/` that the other browser suites serve is left alone. Run by `make test`.

#[allow(dead_code)] // a suite of one test uses few of the helpers
#[path = "support/browser.rs"]
mod browser;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `trunk serve` in its own process group, stopped (with the cargo it started) when dropped.
struct TrunkServe {
    child: Child,
    port: u16,
}

impl TrunkServe {
    fn start() -> TrunkServe {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        std::fs::create_dir_all(root.join("target/e2e")).expect("target/e2e");
        let log =
            std::fs::File::create(root.join("target/e2e/trunk-serve.log")).expect("the log file");
        let child = Command::new("trunk")
            .args(["serve", "--address", "127.0.0.1", "--port"])
            .arg(port.to_string())
            .args(["--dist", "target/e2e/serve-dist", "--open", "false"])
            .current_dir(root)
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("the log file"))
            .stderr(log)
            .process_group(0)
            .spawn()
            .expect("trunk is installed (make tools)");
        TrunkServe { child, port }
    }

    /// The served index page, once Trunk has built it (a debug build: minutes on a cold
    /// machine).
    fn wait_for_page(&mut self) -> String {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("trunk's status") {
                panic!("trunk serve exited ({status}); see target/e2e/trunk-serve.log");
            }
            if let Some(page) = get(self.port, "/") {
                // The page's own module, once Trunk has built it.
                if page.contains("playground-page.js") {
                    return page;
                }
            }
            assert!(
                start.elapsed() < Duration::from_secs(1_500),
                "trunk serve did not serve the page; see target/e2e/trunk-serve.log"
            );
            std::thread::sleep(Duration::from_millis(500));
        }
    }
}

impl Drop for TrunkServe {
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill").args(["-TERM", "--", &group]).status();
        let _ = self.child.wait();
    }
}

/// The body of `GET path` from 127.0.0.1:`port`, with its headers, when it answers 200.
fn get(port: u16, path: &str) -> Option<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut text = String::new();
    stream.read_to_string(&mut text).ok()?;
    text.starts_with("HTTP/1.1 200").then_some(text)
}

#[tokio::test]
async fn the_served_page_reloads_and_keeps_a_clean_console() {
    let mut trunk = TrunkServe::start();
    let served = trunk.wait_for_page();
    // One nonce, the same in the header's policy, the page's policy and the reload script.
    let nonce = served
        .split("'nonce-")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .expect("a nonce in the policy")
        .to_string();
    assert!(nonce.len() >= 16 && !nonce.contains("TRUNK"), "{nonce}");
    assert!(
        served.contains(&format!("nonce=\"{nonce}\"")),
        "the reload script carries it"
    );
    assert!(served
        .to_ascii_lowercase()
        .contains("content-security-policy: default-src 'self'"));
    let port = trunk.port;
    browser::run("trunk-serve", move |page| async move {
        page.devtools("Page.enable", serde_json::json!({})).await;
        page.devtools(
            "Page.addScriptToEvaluateOnNewDocument",
            serde_json::json!({"source": "window.__violations = [];
                document.addEventListener('securitypolicyviolation',
                  e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"}),
        )
        .await;
        page.client
            .goto(&format!("http://127.0.0.1:{port}/"))
            .await
            .expect("the served page");
        let start = Instant::now();
        while page
            .eval("return !!document.querySelector('#resilience-app section.region')")
            .await
            != true
        {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "the app never drew"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        // The reload script ran: it keeps a socket open to Trunk.
        tokio::time::sleep(Duration::from_millis(1_000)).await;
        let ran = page
            .eval("return [...document.scripts].filter(s => !s.src && s.nonce).length")
            .await;
        assert_eq!(ran, serde_json::json!(1), "the injected reload script");
        assert_eq!(
            page.eval("return window.__violations").await,
            serde_json::json!([]),
            "no policy violation"
        );
        // The harness then checks that the console reported no error.
    })
    .await;
}
