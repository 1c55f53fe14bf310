//! A drawer for the controls on a narrow screen: a bar at the foot of the screen that opens
//! over the views. On a wide screen the bar is hidden and the body always shows (style.css).

use yew::prelude::*;

use super::ids::use_ids;

/// Properties of [`Drawer`].
#[derive(Properties, PartialEq)]
pub struct DrawerProps {
    /// What the bar says when closed.
    pub label: AttrValue,
    pub children: Html,
}

/// Its children, behind a bar that opens and closes them on a narrow screen.
#[function_component(Drawer)]
pub fn drawer(props: &DrawerProps) -> Html {
    let ids = use_ids();
    let open = use_state(|| false);
    let on_toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let body_id = ids.id("drawer-body");
    html! {
        <div class={classes!("drawer", open.then_some("drawer-open"))}>
            <button type="button" class="drawer-toggle" id={ids.id("drawer-toggle")}
                aria-expanded={open.to_string()} aria-controls={body_id.clone()} onclick={on_toggle}>
                { if *open { "Close" } else { props.label.as_str() } }
            </button>
            <div class="drawer-body" id={body_id}>{ props.children.clone() }</div>
        </div>
    }
}
