//! Hooks that drive the page from the browser: animation frames while playing, and the
//! keyboard shortcuts.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use crate::page::action::Action;
use crate::page::playback::LONGEST_TICK_MS;

/// A frame callback that schedules itself again, so it holds a reference to itself.
type FrameLoop = Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>>;

/// Whether the reader asked the system for reduced motion.
pub(crate) fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

/// While `playing`, sends `Action::Tick(ms since the last frame)` once per animation frame;
/// with reduced motion asked for, once a second (the playhead jumps a second at a time).
#[hook]
pub fn use_playback(playing: bool, dispatch: Callback<Action>) {
    use_effect_with(playing, move |&playing| {
        let stopped = Rc::new(Cell::new(false));
        let handle = Rc::new(Cell::new(0i32));
        if playing {
            let frame: FrameLoop = Rc::new(RefCell::new(None));
            let last = Rc::new(Cell::new(None::<f64>));
            let least = if reduced_motion() {
                LONGEST_TICK_MS
            } else {
                0.0
            };
            let owed = Cell::new(0.0);
            let (frame2, stopped2, handle2) = (frame.clone(), stopped.clone(), handle.clone());
            *frame.borrow_mut() = Some(Closure::new(move |now: f64| {
                if stopped2.get() {
                    return;
                }
                if let Some(prev) = last.replace(Some(now)) {
                    owed.set(owed.get() + (now - prev));
                    if owed.get() >= least {
                        dispatch.emit(Action::Tick(owed.replace(0.0)));
                    }
                }
                if let (Some(w), Some(f)) = (web_sys::window(), frame2.borrow().as_ref()) {
                    if let Ok(h) = w.request_animation_frame(f.as_ref().unchecked_ref()) {
                        handle2.set(h);
                    }
                }
            }));
            if let (Some(w), Some(f)) = (web_sys::window(), frame.borrow().as_ref()) {
                if let Ok(h) = w.request_animation_frame(f.as_ref().unchecked_ref()) {
                    handle.set(h);
                }
            }
            let keep = frame;
            return Box::new(move || {
                stopped.set(true);
                if let Some(w) = web_sys::window() {
                    let _ = w.cancel_animation_frame(handle.get());
                }
                // Break the closure's reference to itself so it can be freed.
                keep.borrow_mut().take();
            }) as Box<dyn FnOnce()>;
        }
        Box::new(|| ()) as Box<dyn FnOnce()>
    });
}

/// The action a key press asks for: space plays or pauses, arrows step (Shift: ten steps),
/// `r` goes back to the start. Keys the focused control uses itself are left to it (see
/// [`is_shortcut`]).
pub fn shortcut_action(e: &KeyboardEvent) -> Option<Action> {
    if !is_shortcut(e) {
        return None;
    }
    let steps = if e.shift_key() { 10 } else { 1 };
    match e.key().as_str() {
        " " => Some(Action::TogglePlay),
        "ArrowRight" => Some(Action::Step(steps)),
        "ArrowLeft" => Some(Action::Step(-steps)),
        "r" | "R" => Some(Action::Seek(0)),
        _ => None,
    }
}

/// True when a key press may be a shortcut: no Ctrl, Meta or Alt, and not a key the focused
/// element uses itself. A text field, a list, a slider and a radio group keep every key; a
/// button, a link and a switch keep only space and Enter (they have no use for the arrows or
/// `r`), so the shortcuts work wherever the focus is, the Play button included. A chart that
/// reads its parts (`data-own-keys`) keeps the arrows, Home and End.
pub fn is_shortcut(e: &KeyboardEvent) -> bool {
    if e.ctrl_key() || e.meta_key() || e.alt_key() {
        return false;
    }
    let key = e.key();
    let activates = key == " " || key == "Enter";
    let Some(el) = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return true;
    };
    // A chart or a list that reads its parts with the arrows keeps them.
    let moves = matches!(
        key.as_str(),
        "ArrowRight" | "ArrowLeft" | "ArrowUp" | "ArrowDown" | "Home" | "End"
    );
    if moves && el.closest("[data-own-keys]").ok().flatten().is_some() {
        return false;
    }
    match el.tag_name().as_str() {
        "SELECT" | "TEXTAREA" => false,
        "INPUT" => el.get_attribute("type").as_deref() == Some("checkbox") && !activates,
        "BUTTON" | "A" | "SUMMARY" => !activates,
        _ => true,
    }
}

/// A key handler for one element (a widget) that sends the shortcuts' actions to `dispatch`.
pub fn shortcut_keys(dispatch: &Callback<Action>) -> Callback<KeyboardEvent> {
    let dispatch = dispatch.clone();
    Callback::from(move |e: KeyboardEvent| {
        if let Some(action) = shortcut_action(&e) {
            e.prevent_default();
            dispatch.emit(action);
        }
    })
}

/// The shortcuts of [`shortcut_action`] anywhere on the page: for the full playground, which
/// has the page to itself. (A widget listens on its own element instead.)
#[hook]
pub fn use_shortcuts(dispatch: Option<Callback<Action>>) {
    use_document_keys(dispatch.as_ref().map(shortcut_keys));
}

/// While `keys` is given, every key pressed anywhere on the page goes to it (a page that has
/// the document to itself: the playground, a lesson on `lesson.html`).
#[hook]
pub fn use_document_keys(keys: Option<Callback<KeyboardEvent>>) {
    use_effect_with(keys.is_some(), move |&listening| {
        let listener = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
            if let Some(keys) = &keys {
                keys.emit(e);
            }
        });
        let document = web_sys::window()
            .and_then(|w| w.document())
            .filter(|_| listening);
        if let Some(d) = &document {
            let _ =
                d.add_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref());
        }
        move || {
            if let Some(d) = &document {
                let _ = d.remove_event_listener_with_callback(
                    "keydown",
                    listener.as_ref().unchecked_ref(),
                );
            }
        }
    });
}
