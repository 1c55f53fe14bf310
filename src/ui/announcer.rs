//! The events of a playing run, said through a polite live region at a pace a listener can
//! follow (see [`crate::page::announce`]), with a switch that stops them (WCAG 2.2.2). The
//! switch shows when it has the keyboard's focus, as a skip link does.

use yew::prelude::*;

use super::canvas::now_ms;
use super::ids::use_ids;
use crate::page::announce::Announcer;
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
}

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
        use_effect_with(
            (props.playhead, props.playing, *on),
            move |&(playhead, playing, on)| {
                if !playing || !on {
                    // Paused, the run's summary speaks; stopped, nothing does.
                    spoken.set(String::new());
                    announcer.borrow_mut().advance(
                        &run.0.markers,
                        playhead,
                        f64::NEG_INFINITY,
                        start,
                    );
                    return;
                }
                if let Some(sentence) =
                    announcer
                        .borrow_mut()
                        .advance(&run.0.markers, playhead, now_ms(), start)
                {
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
    html! {
        <div class="announcements">
            <label class="announce-switch" for={ids.id("announce-events")}>
                <input type="checkbox" id={ids.id("announce-events")} checked={*on} {onchange} />
                { " Announce events while playing (for screen readers)" }
            </label>
            <p class="visually-hidden" aria-live="polite" id={ids.id("announcements")}>{ (*spoken).clone() }</p>
        </div>
    }
}
