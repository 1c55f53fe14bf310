//! "Four libraries, one failure": lesson 000's protection as each library writes it, side by
//! side on one scenario, where they differ in words, and a paste box that runs the reader's own
//! configuration of any of them beside them. The runs come from `page::libraries`.

use std::rc::Rc;

use yew::prelude::*;

use super::ids::use_ids;
use crate::page::lessons::capitalized;
use crate::page::libraries::{compare, row_headings, yours, Column, Comparison};
use crate::page::permalink::from_pairs_or;
use crate::page::runs::Shared;
use crate::page::state::Page;
use crate::sim::scenario::Preset;

/// Properties of [`LibraryCompareView`].
#[derive(Properties, PartialEq)]
pub struct LibraryCompareProps {
    /// The page whose scenario every library runs on (the widget's settings).
    pub page: Shared<Page>,
}

/// What the reader pasted, as run: its column and notices, or why it cannot run.
type Pasted = Option<Result<(Column, Vec<String>), String>>;

/// The comparison (computed after the first frame, so the heading and a line saying what is
/// coming draw at once), then the paste box.
#[function_component(LibraryCompareView)]
pub fn library_compare_view(props: &LibraryCompareProps) -> Html {
    let ids = use_ids();
    let comparison = use_state(|| None::<Rc<Result<Comparison, String>>>);
    {
        let comparison = comparison.clone();
        use_effect_with(props.page.clone(), move |page| {
            let base = page.0.config();
            let timer = gloo_timers::callback::Timeout::new(0, move || {
                comparison.set(Some(Rc::new(compare(&base))));
            });
            move || drop(timer)
        });
    }
    let pasted = use_state(|| None as Pasted);
    let area = use_node_ref();
    let on_run = {
        let (area, pasted, page) = (area.clone(), pasted.clone(), props.page.clone());
        Callback::from(move |_: MouseEvent| {
            // Read when pressed, straight from the text area, so the latest paste is in it.
            let text = area
                .get()
                .and_then(|node| js_sys::Reflect::get(&node, &"value".into()).ok())
                .and_then(|v| v.as_string())
                .unwrap_or_default();
            pasted.set(Some(yours(&page.0.config(), &text)));
        })
    };
    let table = match comparison.as_deref() {
        None => html! {
            <p class="placeholder" role="status">{ "Running the intent under each library…" }</p>
        },
        Some(Err(e)) => html! {
            <p class="notice" role="alert">{ format!("The comparison cannot run: {e}") }</p>
        },
        Some(Ok(c)) => {
            let mine = pasted
                .as_ref()
                .and_then(|p| p.as_ref().ok())
                .map(|(c, _)| c);
            html! {
                <>
                    { figures_table(&ids.id("libraries-table"), c, mine) }
                    <p class="libraries-sub"><strong>{ "Where they differ" }</strong></p>
                    <ul class="libraries-differences" id={ids.id("libraries-differences")}>
                        { for c.differences.iter().map(|d| html! { <li>{ d }</li> }) }
                        { for c.skipped.iter().map(|d| html! { <li>{ d }</li> }) }
                    </ul>
                    <details class="libraries-written">
                        <summary>{ "How each library writes the intent" }</summary>
                        <dl>
                            { for c.columns.iter().map(|col| html! {
                                <><dt>{ &col.library }</dt><dd>{ &col.written }</dd></>
                            }) }
                        </dl>
                    </details>
                </>
            }
        }
    };
    let verdict = match pasted.as_ref() {
        None => Html::default(),
        Some(Ok((column, notices))) if notices.is_empty() => html! {
            <p class="libraries-read" role="status">{ format!("{} runs in the last column.", column.library) }</p>
        },
        Some(Ok((column, notices))) => html! {
            <p class="libraries-read" role="status">
                { format!("{} runs in the last column. Not used as written: {}.", column.library, notices.join("; ")) }
            </p>
        },
        Some(Err(e)) => html! {
            <p class="notice" role="alert">{ format!("{e}; nothing was run.") }</p>
        },
    };
    let area_id = ids.id("libraries-paste");
    html! {
        <div class="library-compare">
            <p class="libraries-intent">
                { format!(
                    "One intent: retry twice with back-off, give up on a slow dependency, stop calling it when it fails. Each library writes it in its own terms, and each runs on the same scenario ({}, seed {}).",
                    props.page.0.settings.preset.title(),
                    props.page.0.settings.full.run.seed
                ) }
            </p>
            { table }
            <div class="libraries-paste">
                <label for={area_id.clone()}>
                    { "Your own configuration, of any of the four: a resilience4j: block (YAML), Polly's options (JSON), an Envoy route and cluster (YAML) or a gRPC service config (JSON). It runs on the same scenario and seed with its library's semantics, in a last column." }
                </label>
                <textarea id={area_id} ref={area} rows="8" spellcheck="false" />
                <button type="button" id={ids.id("libraries-run")} onclick={on_run}>{ "Run mine beside them" }</button>
                { verdict }
            </div>
        </div>
    }
}

/// Properties of [`LibrariesOnRequest`].
#[derive(Properties, PartialEq)]
pub struct LibrariesOnRequestProps {
    /// What the comparison runs, in a sentence.
    pub what: AttrValue,
    /// The start button's id.
    pub start_id: AttrValue,
}

/// The comparison on Saturday's cascade behind a start button (the whole module's playground,
/// which draws its explorers itself): nothing is run before the student asks.
#[function_component(LibrariesOnRequest)]
pub fn libraries_on_request(props: &LibrariesOnRequestProps) -> Html {
    let page = use_state(|| None::<Shared<Page>>);
    if let Some(page) = page.as_ref() {
        return html! { <LibraryCompareView page={page.clone()} /> };
    }
    let onclick = Callback::from(move |_: MouseEvent| {
        let (saturday, _) = from_pairs_or(&[], Preset::Saturday);
        page.set(Some(Shared(Rc::new(saturday))));
    });
    html! {
        <>
            <p>{ props.what.clone() }</p>
            <button id={props.start_id.clone()} {onclick}>{ "Compare the libraries" }</button>
        </>
    }
}

/// A row per figure, a column per library (the reader's last).
fn figures_table(id: &AttrValue, c: &Comparison, mine: Option<&Column>) -> Html {
    let columns: Vec<(&Column, Option<&str>)> = c
        .columns
        .iter()
        .map(|col| (col, None))
        .chain(mine.map(|col| (col, Some("libraries-yours"))))
        .collect();
    html! {
        <div class="table-scroll wide-table-scroll" tabindex="0" role="region" aria-label="The libraries' figures">
            <table class="libraries-table" id={id.clone()}>
                <thead>
                    <tr>
                        <th scope="col">{ "At the run's end" }</th>
                        { for columns.iter().map(|(col, class)| html! { <th scope="col" class={*class}>{ &col.library }</th> }) }
                    </tr>
                </thead>
                <tbody>
                    { for row_headings().into_iter().enumerate().map(|(i, heading)| html! {
                        <tr>
                            <th scope="row">{ capitalized(heading) }</th>
                            { for columns.iter().map(|(col, class)| html! { <td class={*class}>{ &col.figures[i] }</td> }) }
                        </tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}
