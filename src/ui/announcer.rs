//! The events of a playing run, said through a polite live region at a pace a listener can
//! follow (see [`crate::page::announce`]), with a switch that stops them (WCAG 2.2.2). The
//! switch shows when it has the keyboard's focus, as a skip link does. Paused, a status says
//! where the run stands; when the run itself changes (a knob dragged), it waits until the run
//! has stayed the same for a second, then says the new outcome once.

use yew::prelude::*;

use super::canvas::now_ms;
use super::ids::use_ids;
use crate::page::announce::Announcer;
use crate::page::replay::{frame, spoken_summary};
use crate::page::runs::{Run, Shared};
use crate::sim::latency::Micros;

/// Properties of [`Announcements`].
#[derive(Properties, PartialEq)]
pub struct AnnouncementsProps {
    pub run: Shared<Run>,
    pub playhead: Micros,
    pub playing: bool,
    /// The page's clock's start, when it shows a time of day.
    pub clock_start: Option<Micros>,
    /// A lesson step's "What to notice" sentences at the playhead, by rule: each is said once
    /// when the run reaches it.
    #[prop_or_default]
    pub notices: Vec<(usize, String)>,
    /// The outcomes the summary counts, when not the run's usual ones (a lesson step's).
    #[prop_or_default]
    pub counted: Option<Vec<crate::sim::trace::Outcome>>,
}

/// How long a new run must stay before its outcome is said: a knob being dragged makes a run
/// per step of the drag, and only the last one is worth hearing.
const SETTLED_MS: u32 = 1_000;

/// The live region and its switch.
#[function_component(Announcements)]
pub fn announcements(props: &AnnouncementsProps) -> Html {
    let ids = use_ids();
    let on = use_state(|| true);
    let announcer = use_mut_ref(Announcer::default);
    let spoken = use_state_eq(String::new);
    {
        let announcer = announcer.clone();
        use_effect_with(props.run.clone(), move |_| {
            *announcer.borrow_mut() = Announcer::default();
        });
    }
    {
        let (announcer, spoken) = (announcer.clone(), spoken.clone());
        let run = props.run.clone();
        let start = props.clock_start;
        let notices = props.notices.clone();
        use_effect_with(
            (props.playhead, props.playing, *on),
            move |&(playhead, playing, on)| {
                if !playing || !on {
                    // Paused, the run's summary speaks; stopped, nothing does.
                    spoken.set(String::new());
                    announcer.borrow_mut().advance_with_notices(
                        &run.0.markers,
                        &notices,
                        playhead,
                        f64::NEG_INFINITY,
                        start,
                    );
                    return;
                }
                if let Some(sentence) = announcer.borrow_mut().advance_with_notices(
                    &run.0.markers,
                    &notices,
                    playhead,
                    now_ms(),
                    start,
                ) {
                    spoken.set(sentence);
                }
            },
        );
    }
    let onchange = {
        let on = on.clone();
        Callback::from(move |e: Event| {
            on.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .checked(),
            )
        })
    };
    // Paused: where the run stands, said at once after a step or a seek, and once the run has
    // settled after a change of the run itself.
    let summary = if props.playing {
        String::new()
    } else {
        spoken_summary(
            &frame(&props.run.trace, props.playhead),
            props.counted.as_ref().unwrap_or(&props.run.outcomes),
            props.clock_start,
        )
    };
    let settled = use_state(|| props.run.clone());
    let status = use_state_eq(|| summary.clone());
    {
        let (settled, status) = (settled.clone(), status.clone());
        use_effect_with(
            (props.run.clone(), summary),
            move |(run, summary): &(Shared<Run>, String)| {
                let mut timer = None;
                if *run == *settled || summary.is_empty() {
                    status.set(summary.clone());
                } else {
                    let (run, summary) = (run.clone(), summary.clone());
                    timer = Some(gloo_timers::callback::Timeout::new(SETTLED_MS, move || {
                        settled.set(run);
                        status.set(format!("New outcome. {summary}"));
                    }));
                }
                move || drop(timer)
            },
        );
    }
    html! {
        <div class="announcements">
            <p class="visually-hidden" role="status" id={ids.id("run-summary")}>{ (*status).clone() }</p>
            <label class="announce-switch" for={ids.id("announce-events")}>
                <input type="checkbox" id={ids.id("announce-events")} checked={*on} {onchange} />
                { " Announce events while playing (for screen readers)" }
            </label>
            <p class="visually-hidden" aria-live="polite" id={ids.id("announcements")}>{ (*spoken).clone() }</p>
        </div>
    }
}
