//! The metastability explorer's Web Worker, seen from the page. The worker
//! (`static/metastability-worker.js`) runs the same WebAssembly as the page: it is sent the
//! URL of the page's glue ([`super::Glue`]) and the module the page has already compiled, so
//! nothing is downloaded twice. It answers one cell request per message, each a line of text
//! ([`crate::page::metastability_wire`]). The page keeps
//! it [`IN_FLIGHT`] requests busy and hands the replies to the view every [`HAND_OVER_MS`]:
//! redrawing the grid is the page's cost (a full repaint of the playground each time), and
//! ten times a second is enough to watch it fill.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};
use yew::prelude::*;

use crate::page::metastability::Switches;
use crate::page::metastability_wire::{CellReply, CellRequest};

/// The worker's script, next to the glue and the wasm in dist/.
const WORKER_SCRIPT: &str = "metastability-worker.js";
/// Cells asked for ahead of the replies, so the worker never waits for the page.
const IN_FLIGHT: usize = 2;
/// How often the replies received are handed to the view, ms.
const HAND_OVER_MS: u32 = 100;
/// How long the worker may take to say it is ready before the page computes the grid itself.
const START_TIMEOUT_MS: u32 = 10_000;

/// What the worker tells the view.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkerEvent {
    /// It has its simulator and takes requests.
    Ready,
    /// The replies received since the last hand-over, in order.
    Replies(Vec<CellReply>),
    /// It could not start, or stopped; the reason, for the notice.
    Failed(String),
}

/// The cells the view wants now: those of grid number `run`, from `next` up to `total`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Wanted {
    pub run: u32,
    pub next: usize,
    pub total: usize,
    pub switches: Switches,
}

/// The grid the worker is computing: its number and cells, and how many have been asked for.
#[derive(Debug, Clone, Copy)]
struct Job {
    wanted: Wanted,
    asked: usize,
}

/// What the message handler and the view's effects share: the job, and the replies not yet
/// handed to the view (with the timer that will).
#[derive(Default)]
struct Pending {
    job: Option<Job>,
    replies: Vec<CellReply>,
    hand_over: Option<Timeout>,
}

/// Posts the requests `job` has not made yet, up to [`IN_FLIGHT`] ahead of `received`.
fn ask(worker: &Worker, job: &mut Job, received: usize) {
    let Wanted {
        run,
        total,
        switches,
        ..
    } = job.wanted;
    while job.asked < (received + IN_FLIGHT).min(total) {
        let request = CellRequest {
            run,
            index: job.asked,
            switches,
        };
        if worker
            .post_message(&JsValue::from_str(&request.to_string()))
            .is_err()
        {
            return;
        }
        job.asked += 1;
    }
}

/// A started worker and the handlers it keeps.
struct Link {
    worker: Worker,
    pending: Rc<RefCell<Pending>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
    _start_timeout: Rc<RefCell<Option<Timeout>>>,
}

impl Drop for Link {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

impl Link {
    /// Sets the grid to compute: a new one (another run) starts at its `next` cell; the same
    /// one is already being asked for as replies arrive.
    fn want(&self, wanted: Option<Wanted>) {
        let mut pending = self.pending.borrow_mut();
        match wanted {
            Some(w) if pending.job.map(|j| j.wanted.run) != Some(w.run) => {
                let mut job = Job {
                    wanted: w,
                    asked: w.next,
                };
                ask(&self.worker, &mut job, w.next);
                pending.job = Some(job);
            }
            Some(_) => {}
            None => pending.job = None,
        }
    }
}

/// Takes one reply: keeps it for the view if it belongs to the job, asks for the next cell,
/// and makes sure a hand-over is due (at once after the grid's last cell).
fn take_reply(
    worker: &Worker,
    pending: &Rc<RefCell<Pending>>,
    reply: CellReply,
    on_event: &Callback<WorkerEvent>,
) {
    let mut p = pending.borrow_mut();
    let Some(mut job) = p.job.filter(|j| j.wanted.run == reply.run) else {
        return;
    };
    if reply.outcome.is_err() {
        job.asked = job.wanted.total;
    }
    ask(worker, &mut job, reply.index + 1);
    let last = reply.index + 1 >= job.wanted.total || reply.outcome.is_err();
    p.job = Some(job);
    p.replies.push(reply);
    if last {
        p.hand_over = None;
        let replies = std::mem::take(&mut p.replies);
        drop(p);
        on_event.emit(WorkerEvent::Replies(replies));
    } else if p.hand_over.is_none() {
        let (pending, on_event) = (pending.clone(), on_event.clone());
        p.hand_over = Some(Timeout::new(HAND_OVER_MS, move || {
            let replies = {
                let mut p = pending.borrow_mut();
                p.hand_over = None;
                std::mem::take(&mut p.replies)
            };
            on_event.emit(WorkerEvent::Replies(replies));
        }));
    }
}

/// `file` next to the playground's own files: beside the widget's `playground_url` in a
/// course page, beside the page itself otherwise.
fn asset_url(file: &str) -> Option<String> {
    let base = super::assets_base().or_else(|| web_sys::window()?.location().href().ok())?;
    web_sys::Url::new_with_base(file, &base)
        .ok()
        .map(|u| u.href())
}

/// Reads one message of the worker: a reply line (a string), or `{ready}` / `{failed}`.
fn event_of(data: &JsValue) -> WorkerEvent {
    if let Some(line) = data.as_string() {
        return match line.parse::<CellReply>() {
            Ok(reply) if reply.run == 0 => {
                WorkerEvent::Failed(reply.outcome.err().unwrap_or_default())
            }
            Ok(reply) => WorkerEvent::Replies(vec![reply]),
            Err(e) => WorkerEvent::Failed(format!("its reply `{line}` did not parse ({e})")),
        };
    }
    let field = |name: &str| js_sys::Reflect::get(data, &JsValue::from_str(name)).ok();
    match field("failed").and_then(|f| f.as_string()) {
        Some(reason) => WorkerEvent::Failed(reason),
        None if field("ready").is_some_and(|r| r.is_truthy()) => WorkerEvent::Ready,
        None => WorkerEvent::Failed("it sent a message the page does not know".into()),
    }
}

/// Starts the worker and sends it the glue's URL and the compiled module.
fn start(on_event: Callback<WorkerEvent>) -> Result<Link, String> {
    let from_a_file = web_sys::window()
        .and_then(|w| w.location().protocol().ok())
        .is_some_and(|p| p == "file:");
    if from_a_file {
        // The browser's own refusal names origins and URLs; the reason in words instead.
        return Err(
            "this page was opened from a file, and browsers start no Web Worker \
                    from a file"
                .to_string(),
        );
    }
    let (script, glue) = asset_url(WORKER_SCRIPT)
        .zip(asset_url(super::glue().file_name()))
        .ok_or("the page has no address to find the worker script from")?;
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    let worker = Worker::new_with_options(&script, &options).map_err(|e| describe(&e))?;
    let start_timeout = Rc::new(RefCell::new(None::<Timeout>));
    let pending = Rc::new(RefCell::new(Pending::default()));
    let on_message = {
        let (on_event, start_timeout) = (on_event.clone(), start_timeout.clone());
        let (worker, pending) = (worker.clone(), pending.clone());
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            match event_of(&event.data()) {
                WorkerEvent::Replies(mut one) if one.len() == 1 => {
                    take_reply(&worker, &pending, one.remove(0), &on_event);
                }
                other => {
                    if other == WorkerEvent::Ready {
                        start_timeout.borrow_mut().take().map(Timeout::cancel);
                    }
                    on_event.emit(other);
                }
            }
        })
    };
    let on_error = {
        let (on_event, worker) = (on_event.clone(), worker.clone());
        Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            event.prevent_default();
            worker.terminate();
            let message = event
                .dyn_ref::<web_sys::ErrorEvent>()
                .map(|e| e.message())
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| format!("{WORKER_SCRIPT} did not load or stopped"));
            on_event.emit(WorkerEvent::Failed(message));
        })
    };
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    *start_timeout.borrow_mut() = Some(Timeout::new(START_TIMEOUT_MS, move || {
        on_event.emit(WorkerEvent::Failed(format!(
            "it did not start within {} s",
            START_TIMEOUT_MS / 1_000
        )));
    }));
    let init = js_sys::Object::new();
    let set = |key: &str, value: &JsValue| js_sys::Reflect::set(&init, &key.into(), value);
    set("glue", &JsValue::from_str(&glue))
        .and_then(|_| set("module", &wasm_bindgen::module()))
        .map_err(|e| describe(&e))?;
    worker
        .post_message(&init)
        .map_err(|e| format!("the simulator could not be sent to it: {}", describe(&e)))?;
    Ok(Link {
        worker,
        pending,
        _on_message: on_message,
        _on_error: on_error,
        _start_timeout: start_timeout,
    })
}

fn describe(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "an unknown error".into())
}

/// Computes the explorer's cells in a Web Worker: starts it when `start_now` first turns true
/// (never before, so a page that never asks for the grid fetches no worker), then, while
/// `wanted` is some, asks it for those cells (a new `run` drops the replies of the last). What the worker says goes to `on_event`: a
/// worker that cannot start or stops says [`WorkerEvent::Failed`], and the view computes the
/// rest itself. The worker is terminated when the view unmounts.
#[hook]
pub fn use_cell_worker(start_now: bool, wanted: Option<Wanted>, on_event: Callback<WorkerEvent>) {
    let link = use_mut_ref(|| None::<Link>);
    {
        let link = link.clone();
        use_effect_with(start_now, move |&start_now| {
            if start_now && link.borrow().is_none() {
                match start(on_event.clone()) {
                    Ok(started) => *link.borrow_mut() = Some(started),
                    Err(reason) => on_event.emit(WorkerEvent::Failed(reason)),
                }
            }
        });
    }
    {
        let link = link.clone();
        use_effect_with(wanted, move |wanted| {
            if let Some(link) = link.borrow().as_ref() {
                link.want(*wanted);
            }
        });
    }
    use_effect_with((), move |()| move || drop(link.borrow_mut().take()));
}
