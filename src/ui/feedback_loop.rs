//! A failure-zoo preset's feedback loop: its four stations round a cycle, the arrows lit while
//! the loop drives at the playhead, and the key that cuts it.

use yew::prelude::*;

use crate::page::feedback_loop::FeedbackLoop;

/// Properties of [`LoopDiagram`].
#[derive(Properties, PartialEq)]
pub struct LoopDiagramProps {
    /// The loop.
    pub shape: FeedbackLoop,
    /// Whether it drives at the playhead.
    pub driving: bool,
}

/// The stations as a ring of four (read in order, the last leads back to the first), and one
/// sentence saying whether the loop drives now.
#[function_component(LoopDiagram)]
pub fn loop_diagram(props: &LoopDiagramProps) -> Html {
    let shape = &props.shape;
    let stations = shape.stations.iter().enumerate().map(|(i, s)| {
        html! { <li class={format!("station station-{i}")}>{ *s }</li> }
    });
    let status = if props.driving {
        "The loop drives now: each station feeds the next."
    } else {
        "The loop is still now."
    };
    html! {
        <figure class={classes!("feedback-loop", props.driving.then_some("driving"))}>
            <ol aria-label="The loop, each station leading to the next and the last to the first">
                { for stations }
            </ol>
            <figcaption>
                <span class="loop-status">{ status }</span>
                { " Cut it with " }<code>{ shape.cure }</code>{ "." }
            </figcaption>
        </figure>
    }
}
