//! The bar above the playground: scenario picker, seed, reset, theme and projector mode.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::controls::Switch;
use super::ids::use_ids;
use crate::page::action::Action;
use crate::sim::scenario::Preset;

/// Properties of [`Toolbar`].
#[derive(Properties, PartialEq)]
pub struct ToolbarProps {
    pub preset: Preset,
    /// A control has changed the run since the preset was picked.
    #[prop_or_default]
    pub modified: bool,
    pub seed: u64,
    pub dark: bool,
    pub projector: bool,
    /// A/B mode on.
    #[prop_or_default]
    pub ab: bool,
    pub on_action: Callback<Action>,
}

fn option(preset: Preset, picked: Preset, modified: bool) -> Html {
    let title = if preset == picked && modified {
        format!("{} (modified)", preset.title())
    } else {
        preset.title().to_string()
    };
    html! {
        <option value={preset.key()} selected={preset == picked}>{ title }</option>
    }
}

/// A seed nobody typed: from the browser's random source, small enough to read aloud.
fn fresh_seed() -> u64 {
    let mut bytes = [0u8; 8];
    if getrandom::getrandom(&mut bytes).is_err() {
        return 1;
    }
    u64::from_le_bytes(bytes) % 1_000_000_000
}

/// Scenario picker, seed field with "New seed", reset, theme and projector switches.
#[function_component(Toolbar)]
pub fn toolbar(props: &ToolbarProps) -> Html {
    let ids = use_ids();
    let seed_notice = use_state(|| None::<String>);
    let on_pick = props.on_action.reform(|e: Event| {
        let select: HtmlSelectElement = e.target_unchecked_into();
        Action::PickPreset(Preset::parse(&select.value()).unwrap_or(Preset::OPENING))
    });
    let on_seed = {
        let on_action = props.on_action.clone();
        let seed_notice = seed_notice.clone();
        let seed = props.seed;
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            match input.value().trim().parse::<u64>() {
                Ok(v) => {
                    seed_notice.set(None);
                    on_action.emit(Action::SetSeed(v));
                }
                Err(_) => {
                    seed_notice.set(Some(format!(
                        "The seed must be a whole number from 0 to {}; keeping {seed}.",
                        u64::MAX
                    )));
                    input.set_value(&seed.to_string());
                }
            }
        })
    };
    let on_new_seed = props
        .on_action
        .reform(|_: MouseEvent| Action::SetSeed(fresh_seed()));
    let on_reset = props.on_action.reform(|_: MouseEvent| Action::Reset);
    let on_dark = props.on_action.reform(Action::SetDark);
    let on_projector = props.on_action.reform(Action::SetProjector);
    let on_ab = props.on_action.reform(Action::SetAb);
    html! {
        <div class="toolbar" role="toolbar" aria-label="Scenario and display">
            <label class="picker">{ "Scenario " }
                <select id={ids.id("scenario")} onchange={on_pick}>
                    <optgroup label="The lesson's four runs">
                        { for Preset::ALL.iter().filter(|p| matches!(p, Preset::Lesson(_))).map(|&p| option(p, props.preset, props.modified)) }
                    </optgroup>
                    <optgroup label="Stories, incidents and exercises">
                        { for Preset::ALL.iter().filter(|p| !matches!(p, Preset::Lesson(_))).map(|&p| option(p, props.preset, props.modified)) }
                    </optgroup>
                </select>
            </label>
            <label class="seed">{ "Seed " }
                <input id={ids.id("seed")} type="text" inputmode="numeric" size="12"
                    value={props.seed.to_string()} onchange={on_seed} />
            </label>
            <button id={ids.id("new-seed")} onclick={on_new_seed}>{ "New seed" }</button>
            <button id={ids.id("reset")} onclick={on_reset} title="Back to the scenario's values">{ "Reset" }</button>
            <Switch id={ids.id("dark")} label="Dark theme" on={props.dark} on_change={on_dark} />
            <Switch id={ids.id("projector")} label="Projector" on={props.projector} on_change={on_projector} />
            <Switch id={ids.id("ab-switch")} label="A/B" on={props.ab} on_change={on_ab} />
            if let Some(text) = &*seed_notice {
                <p class="notice" role="alert">{ text }</p>
            }
        </div>
    }
}
