//! The end-to-end harness: serves `dist/` on a loopback port, starts chromedriver on another,
//! drives headless Chromium over WebDriver, fails on any console error or Rust panic, saves a
//! screenshot under `target/e2e/`, and stops everything it started even when a test fails.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use fantoccini::wd::{Capabilities, WebDriverCompatibleCommand};
use fantoccini::{Client, ClientBuilder};
use serde_json::{json, Value};

/// A script that sets the input with id `id` to `value` and fires `input` and `change`, as a
/// drag or a typed value would; it returns the value the input kept.
#[allow(dead_code)] // not every suite uses every helper
pub fn set_value(id: &str, value: &str) -> String {
    format!(
        "const el = document.getElementById('{id}');
         el.value = '{value}';
         el.dispatchEvent(new Event('input', {{ bubbles: true }}));
         el.dispatchEvent(new Event('change', {{ bubbles: true }}));
         return el.value;"
    )
}

/// A script that returns every element id the page uses more than once.
#[allow(dead_code)] // not every suite uses every helper
pub const DUPLICATE_IDS: &str = "const ids = [...document.querySelectorAll('[id]')].map(e => e.id);
     return ids.filter((id, i) => ids.indexOf(id) !== i);";

/// Where screenshots, logs and the browser's temporary files go.
pub fn artefacts_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    let dir = target.join("e2e");
    std::fs::create_dir_all(&dir).expect("create target/e2e");
    dir
}

fn dist_dir() -> PathBuf {
    let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("dist");
    assert!(
        dist.join("index.html").is_file(),
        "{} has no index.html: build it first with `make dist` (trunk build --release)",
        dist.display()
    );
    dist
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("a free loopback port")
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "ico" => "image/x-icon",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

/// A static file server for `dist/` on 127.0.0.1, stopped on drop.
///
/// Each connection gets a thread of its own and one answer, then is closed. (tiny_http, used
/// before, runs each keep-alive connection as a task of a pool whose growth races with its
/// queue: under load a new connection could wait behind busy ones for ever, and a widget's
/// module request then never got an answer.)
pub struct StaticServer {
    pub port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl StaticServer {
    /// Serves `root`; with `precompressed`, a file's `.br` (else `.gz`) twin is sent when the browser
    /// accepts it, as nginx's `brotli_static` / `gzip_static` do. The files named in `missing`
    /// (paths under `root`) are answered 404, as a host that lacks them would.
    pub fn start(
        root: PathBuf,
        precompressed: bool,
        missing: &'static [&'static str],
    ) -> StaticServer {
        StaticServer::start_for(root, precompressed, missing, false)
    }

    /// [`StaticServer::start`]; with `allow_origin`, every answer lets any origin read it
    /// (`Access-Control-Allow-Origin: *`), as a playground host serving course pages elsewhere
    /// must.
    #[allow(dead_code)] // not every suite serves another origin
    pub fn start_for(
        root: PathBuf,
        precompressed: bool,
        missing: &'static [&'static str],
        allow_origin: bool,
    ) -> StaticServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the static server");
        let port = listener.local_addr().expect("an address").port();
        listener
            .set_nonblocking(true)
            .expect("a non-blocking listener");
        let stop = Arc::new(AtomicBool::new(false));
        let stop_flag = stop.clone();
        let thread = std::thread::spawn(move || {
            while !stop_flag.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let root = root.clone();
                        std::thread::spawn(move || {
                            let _ = answer(stream, &root, precompressed, missing, allow_origin);
                        });
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        StaticServer {
            port,
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Reads one request from `stream` and answers it (see [`StaticServer::start`]).
fn answer(
    mut stream: TcpStream,
    root: &Path,
    precompressed: bool,
    missing: &[&str],
    allow_origin: bool,
) -> std::io::Result<()> {
    use std::io::{BufRead, BufReader, Write};
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut accept_encoding = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("accept-encoding") {
                accept_encoding = value.trim().to_string();
            }
        }
    }
    let target = request_line.split_whitespace().nth(1).unwrap_or("/");
    let (status, mut headers, body) =
        respond(root, precompressed, missing, target, &accept_encoding);
    if allow_origin {
        headers.push(("Access-Control-Allow-Origin", "*"));
        // So that a course page's resource timings give the sizes (`make measure-load`).
        headers.push(("Timing-Allow-Origin", "*"));
    }
    let mut head = format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(&body)?;
    stream.flush()
}

/// The status, headers and body that answer a request for `target` (a path under `root`,
/// with any query) from a browser that accepts `accept_encoding`.
fn respond(
    root: &Path,
    precompressed: bool,
    missing: &[&str],
    target: &str,
    accept_encoding: &str,
) -> (&'static str, Vec<(&'static str, &'static str)>, Vec<u8>) {
    let url = target.split(['?', '#']).next().unwrap_or("/");
    let relative = url.trim_start_matches('/');
    let relative = if relative.is_empty() || relative.ends_with('/') {
        format!("{relative}index.html")
    } else {
        relative.to_string()
    };
    let path = root.join(&relative);
    if relative.split('/').any(|part| part == "..")
        || !path.is_file()
        || missing.contains(&relative.as_str())
    {
        return ("404 Not Found", Vec::new(), b"not found".to_vec());
    }
    let twin = [("br", "br"), ("gzip", "gz")]
        .into_iter()
        .find_map(|(coding, suffix)| {
            let twin = PathBuf::from(format!("{}.{suffix}", path.display()));
            (precompressed && accept_encoding.contains(coding) && twin.is_file())
                .then_some((coding, twin))
        });
    let body = std::fs::read(twin.as_ref().map_or(&path, |(_, t)| t)).unwrap_or_default();
    let mut headers = vec![("Content-Type", content_type(&path))];
    if let Some((coding, _)) = twin {
        headers.push(("Content-Encoding", coding));
    }
    ("200 OK", headers, body)
}

/// A chromedriver process on 127.0.0.1, killed on drop.
pub struct ChromeDriver {
    pub port: u16,
    child: Child,
}

impl ChromeDriver {
    /// Starts chromedriver, its log (and the browser's own output) in `log`, the browser's
    /// temporary files in `temp` (see [`short_temp_dir`]).
    pub fn start(temp: &Path, log: &Path) -> ChromeDriver {
        let port = free_port();
        let log = std::fs::File::create(log).expect("log file");
        let child = Command::new(std::env::var("CHROMEDRIVER").unwrap_or("chromedriver".into()))
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .arg("--enable-chrome-logs")
            .env("TMPDIR", temp)
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("log file"))
            .stderr(log)
            .spawn()
            .expect("chromedriver starts (install Debian's chromium-driver, or run `make test`)");
        let mut driver = ChromeDriver { port, child };
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = driver.child.try_wait() {
                panic!("chromedriver exited early: {status}");
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver did not listen within 20 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        driver
    }
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn chromium_binary() -> String {
    if let Ok(path) = std::env::var("CHROMIUM") {
        return path;
    }
    for candidate in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] {
        if Path::new(candidate).exists() {
            return candidate.to_string();
        }
    }
    "chromium".to_string()
}

/// One of chromedriver's own (non-W3C) commands: a POST of `body` to `session/{id}/{path}`.
/// `se/log` returns the browser console's entries; `goog/cdp/execute` runs a Chrome DevTools
/// Protocol method (device emulation, network and CPU throttling).
#[derive(Debug)]
struct Chromedriver {
    path: &'static str,
    body: Value,
}

/// The command that returns (and clears) the browser console's entries.
fn browser_log() -> Chromedriver {
    Chromedriver {
        path: "se/log",
        body: json!({"type": "browser"}),
    }
}

impl WebDriverCompatibleCommand for Chromedriver {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/{}",
            session_id.unwrap_or_default(),
            self.path
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(self.body.to_string()))
    }
}

/// Runs the DevTools method `method` with `params` in the page's browser.
#[allow(dead_code)] // not every suite uses every helper
pub async fn devtools(client: &Client, method: &str, params: Value) -> Value {
    client
        .issue_cmd(Chromedriver {
            path: "goog/cdp/execute",
            body: json!({"cmd": method, "params": params}),
        })
        .await
        .unwrap_or_else(|e| panic!("DevTools {method} failed: {e}"))
}

/// Keys pressed on the keyboard itself (WebDriver's key actions, as a person types): they go
/// to whatever has the focus, a file input included, with no element named.
#[allow(dead_code)] // not every suite uses every helper
pub async fn press_keys(page: &Page, keys: &[char]) {
    use fantoccini::actions::{InputSource, KeyAction, KeyActions};
    let mut actions = KeyActions::new("keyboard".into());
    for &key in keys {
        actions = actions
            .then(KeyAction::Down { value: key })
            .then(KeyAction::Up { value: key });
    }
    page.client
        .perform_actions(actions)
        .await
        .expect("the keys are pressed");
}

/// Makes the page a phone of `width` x `height` CSS px with a touch screen and no mouse (so
/// `(hover: none)` and `(pointer: coarse)` match), as Chromium's device mode does.
#[allow(dead_code)] // not every suite uses every helper
pub async fn emulate_phone(client: &Client, width: u32, height: u32) {
    devtools(
        client,
        "Emulation.setDeviceMetricsOverride",
        json!({"width": width, "height": height, "deviceScaleFactor": 2, "mobile": true}),
    )
    .await;
    devtools(
        client,
        "Emulation.setTouchEmulationEnabled",
        json!({"enabled": true, "maxTouchPoints": 5}),
    )
    .await;
}

/// Console entries of level SEVERE (errors and Rust panics) since the last call.
pub async fn console_errors(client: &Client) -> Vec<String> {
    let entries = client.issue_cmd(browser_log()).await.unwrap_or(Value::Null);
    entries
        .as_array()
        .map(|entries| {
            entries
                .iter()
                .filter(|entry| entry["level"] == "SEVERE")
                .map(|entry| entry["message"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// One browser session against the served `dist/`. Use [`run`] rather than this directly.
pub struct Page {
    pub client: Client,
    #[allow(dead_code)] // not every suite uses every helper
    pub base_url: String,
}

impl Page {
    /// Opens `path` (relative to `dist/`, or a whole `http://` address) and waits until the
    /// element `ready_css` exists.
    #[allow(dead_code)] // not every suite uses every helper
    pub async fn open(&self, path: &str, ready_css: &str) {
        let address = if path.starts_with("http://") {
            path.to_string()
        } else {
            format!("{}{}", self.base_url, path)
        };
        self.client.goto(&address).await.expect("page loads");
        self.wait_for(ready_css, path).await;
    }

    /// Waits until the element `ready_css` exists on the page open at `path` (30 s at most,
    /// then panics saying what the page shows).
    #[allow(dead_code)] // not every suite uses every helper
    pub async fn wait_for(&self, ready_css: &str, path: &str) {
        let started = Instant::now();
        let script = format!("return !!document.querySelector({});", json!(ready_css));
        while self.eval(&script).await != Value::Bool(true) {
            if started.elapsed() > Duration::from_secs(30) {
                // The page's start, and what each widget on it shows (a widget still loading
                // or one that could not start says so in its text).
                let shown = self
                    .eval(
                        "return [location.href + ': ' + document.body.innerText.slice(0, 300)]\
                         .concat([...document.querySelectorAll('resilience-widget')]\
                         .map((w) => '#' + w.id + ': ' + w.innerText.slice(0, 200)))\
                         .concat(performance.getEntriesByType('resource')\
                         .map((r) => r.name.replace(location.origin, '') + ' ' + Math.round(r.duration) + ' ms'));",
                    )
                    .await;
                let log = self
                    .client
                    .issue_cmd(browser_log())
                    .await
                    .unwrap_or(Value::Null);
                panic!("{ready_css} did not appear on {path} within 30 s: {shown}\n{log}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Runs a script and returns its JSON result.
    pub async fn eval(&self, script: &str) -> Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Sends a Chrome DevTools Protocol command (`Emulation.setEmulatedMedia`,
    /// `HeapProfiler.collectGarbage`, ...) and returns its result.
    #[allow(dead_code)] // not every suite uses every helper
    pub async fn devtools(&self, cmd: &str, params: Value) -> Value {
        devtools(&self.client, cmd, params).await
    }

    /// Text of the first element matching `css`.
    #[allow(dead_code)] // not every suite uses every helper
    pub async fn text(&self, css: &str) -> String {
        self.client
            .find(fantoccini::Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css}: {e}"))
            .text()
            .await
            .expect("element text")
    }

    /// Saves a PNG screenshot as `target/e2e/<name>.png`.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let png = self.client.screenshot().await.expect("screenshot");
        let path = artefacts_dir().join(format!("{name}.png"));
        std::fs::write(&path, png).expect("write screenshot");
        path
    }
}

/// A course page's widgets: a circuit diagram and a histogram (`make measure-load`'s two-widget
/// page).
#[allow(dead_code)] // not every suite uses every helper
pub const TWO_WIDGETS: &str =
    "<resilience-widget kind=\"circuit-diagram\" preset=\"cb\"></resilience-widget>\
     <resilience-widget kind=\"histogram\" preset=\"timeout\"></resilience-widget>";

/// Writes `dir/index.html`: a course page holding `widgets`, which loads `widgets.js` from
/// `playground` (an address ending in `/`), as a course platform's page on its own origin does.
#[allow(dead_code)] // not every suite uses every helper
pub fn course_page(dir: &Path, playground: &str, widgets: &str) {
    std::fs::create_dir_all(dir).expect("course page directory");
    std::fs::write(
        dir.join("index.html"),
        format!(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
             <title>Week 3</title><link rel=\"icon\" href=\"data:,\">\
             <script type=\"module\" src=\"{playground}widgets.js\"></script></head><body>\
             <h1>Week 3: the breaker</h1>{widgets}</body></html>"
        ),
    )
    .expect("course page");
}

/// Serves `dist/`, starts chromedriver and a headless Chromium, runs `body`, then checks the
/// console for errors and panics. Everything started is stopped, also when `body` panics.
pub async fn run<F, Fut>(name: &str, body: F)
where
    F: FnOnce(Page) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    run_serving(name, false, body).await
}

/// [`run`], with the files named in `missing` answered 404 (a host that lacks them).
#[allow(dead_code)] // not every suite uses every helper
pub async fn run_without<F, Fut>(name: &str, missing: &'static [&'static str], body: F)
where
    F: FnOnce(Page) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    serve_and_run(name, false, missing, &[], body).await
}

/// [`run`], the browser's console errors that contain one of `expected` left out (a test of
/// what the page does when something is refused).
#[allow(dead_code)] // not every suite uses every helper
pub async fn run_expecting<F, Fut>(name: &str, expected: &'static [&'static str], body: F)
where
    F: FnOnce(Page) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    serve_and_run(name, false, &[], expected, body).await
}

/// [`run`], with `dist/` served precompressed (`.br` / `.gz` twins) when `precompressed`.
pub async fn run_serving<F, Fut>(name: &str, precompressed: bool, body: F)
where
    F: FnOnce(Page) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    serve_and_run(name, precompressed, &[], &[], body).await
}

async fn serve_and_run<F, Fut>(
    name: &str,
    precompressed: bool,
    missing: &'static [&'static str],
    expected: &'static [&'static str],
    body: F,
) where
    F: FnOnce(Page) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let scratch = artefacts_dir().join(format!("{name}-profile"));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let server = StaticServer::start(dist_dir(), precompressed, missing);
    let temp = short_temp_dir();
    let (driver, client) = start_session(&scratch, &temp).await;

    let page = Page {
        client: client.clone(),
        base_url: format!("http://127.0.0.1:{}/", server.port),
    };
    let outcome = tokio::spawn(body(page)).await;
    // The 404s of the files a test withholds are what it asked for.
    let errors: Vec<String> = console_errors(&client)
        .await
        .into_iter()
        .filter(|e| !(e.contains("404") && missing.iter().any(|m| e.contains(&format!("/{m} ")))))
        .filter(|e| !expected.iter().any(|x| e.contains(x)))
        .collect();
    let _ = client.close().await;
    drop(driver);
    drop(server);
    let _ = std::fs::remove_dir_all(&scratch);
    let _ = std::fs::remove_dir_all(&temp);

    if let Err(failure) = outcome {
        if failure.is_panic() {
            std::panic::resume_unwind(failure.into_panic());
        }
        panic!("{name}: the test body was cancelled");
    }
    assert!(
        errors.is_empty(),
        "{name}: the browser console reported errors:\n{}",
        errors.join("\n")
    );
}

/// A new, empty directory with a short path for the browser's temporary files. Chromium puts
/// its singleton socket there, and a Unix socket's path has at most 107 bytes: under
/// `target/e2e/<test>-profile/` of a clone in a longer directory it exited at start with
/// "Socket path too long" (one test's name was long enough to fail in the CI's clone only).
fn short_temp_dir() -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let system = std::env::temp_dir();
    let base = if system.as_os_str().len() <= 32 {
        system
    } else {
        PathBuf::from("/tmp")
    };
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = base.join(format!("rp-e2e-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory for the browser");
    dir
}

/// How many times a browser that exits while starting ("session not created: Chrome instance
/// exited") is started again, each time with a new chromedriver and a new profile. A lasting
/// cause fails every attempt; the panic then shows each attempt's driver log, which holds the
/// browser's own output (that is how the socket path above was found).
const SESSION_ATTEMPTS: usize = 3;

/// A chromedriver and a WebDriver session with headless Chromium. Panics with every
/// attempt's error and the end of its log when none starts.
async fn start_session(scratch: &Path, temp: &Path) -> (ChromeDriver, Client) {
    let mut failures = Vec::new();
    for attempt in 1..=SESSION_ATTEMPTS {
        let log = scratch.join(format!("chromedriver-{attempt}.log"));
        let profile = scratch.join(format!("user-data-{attempt}"));
        let driver = ChromeDriver::start(temp, &log);
        let capabilities: Capabilities = serde_json::from_value(json!({
            "browserName": "chrome",
            "goog:loggingPrefs": { "browser": "ALL" },
            "goog:chromeOptions": {
                "binary": chromium_binary(),
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run", "--disable-quic",
                    "--window-size=1400,1000",
                    format!("--user-data-dir={}", profile.display()),
                ],
            },
        }))
        .expect("capabilities");
        let session = ClientBuilder::rustls()
            .expect("tls roots")
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{}", driver.port))
            .await;
        match session {
            Ok(client) => return (driver, client),
            Err(error) => {
                drop(driver);
                let text = std::fs::read_to_string(&log).unwrap_or_default();
                let lines: Vec<&str> = text.lines().collect();
                let tail = lines[lines.len().saturating_sub(40)..].join("\n");
                eprintln!(
                    "attempt {attempt} of {SESSION_ATTEMPTS} to start Chromium failed: {error}"
                );
                failures.push(format!("attempt {attempt}: {error}\n{tail}"));
                tokio::time::sleep(Duration::from_secs(2)).await;
            }
        }
    }
    panic!(
        "no WebDriver session with headless Chromium in {SESSION_ATTEMPTS} attempts:\n{}",
        failures.join("\n---\n")
    );
}

/// A script that moves the slider `id` `moves` times (alternately low and high, a new value
/// each time) and returns, for each move, the milliseconds from its input event to the end of
/// the task that handled it, waiting for an animation frame between moves.
#[allow(dead_code)] // not every suite uses every helper
pub fn slider_moves(id: &str, moves: usize) -> String {
    format!(
        "return (async () => {{
           const el = document.getElementById('{id}');
           const times = [];
           for (let i = 0; i < {moves}; i++) {{
             el.value = String(500 + (i % 2) * 1500 + i * 100);
             const t0 = performance.now();
             el.dispatchEvent(new Event('input', {{ bubbles: true }}));
             await new Promise(r => setTimeout(r, 0));
             times.push(performance.now() - t0);
             await new Promise(r => requestAnimationFrame(() => r()));
           }}
           return times;
         }})()"
    )
}

/// The numbers of a measurement script's array (milliseconds), sorted, for the measurement
/// tests' medians.
#[allow(dead_code)] // not every suite uses every helper
pub fn sorted_millis(list: &Value) -> Vec<f64> {
    let mut v: Vec<f64> = list
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default();
    v.sort_by(f64::total_cmp);
    v
}
