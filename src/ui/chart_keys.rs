//! A chart a keyboard can read: focused, the arrow keys move through its parts (the
//! histogram's bars, the load chart's seconds, the breaker's states), each read aloud through
//! a polite live region with its values, Home and End jump to the ends; and the chart's data
//! as a table on demand. The table is built only when it is asked for (a key, or the table
//! opened), never on every frame.

use yew::prelude::*;

use crate::page::chart_table::{moved, ChartTable};

/// What a chart can be read as.
pub trait ChartParts: PartialEq + Clone + 'static {
    /// Its table as it stands now.
    fn table(&self) -> ChartTable;
    /// What one of its parts is called ("bar", "second", "state").
    fn part(&self) -> &'static str;
}

/// Properties of [`ChartKeys`].
#[derive(Properties, PartialEq)]
pub struct ChartKeysProps<S: ChartParts> {
    /// The id of the element, the reading's and the table's ids derived from it.
    pub id: AttrValue,
    /// The chart's name, for the keyboard's group.
    pub name: AttrValue,
    /// Where its table comes from.
    pub source: S,
    /// The chart itself.
    pub children: Html,
}

/// The chart wrapped: a group that takes the focus and the arrow keys, the part last read,
/// and a "Data table" that opens below it.
#[function_component(ChartKeys)]
pub fn chart_keys<S: ChartParts>(props: &ChartKeysProps<S>) -> Html {
    let at = use_state(|| None::<usize>);
    let said = use_state(String::new);
    let open = use_state(|| false);
    let onkeydown = {
        let (at, said, source) = (at.clone(), said.clone(), props.source.clone());
        Callback::from(move |e: KeyboardEvent| {
            if e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            let key = e.key();
            if !matches!(
                key.as_str(),
                "ArrowRight" | "ArrowDown" | "ArrowLeft" | "ArrowUp" | "Home" | "End"
            ) {
                return;
            }
            e.prevent_default();
            e.stop_propagation();
            let table = source.table();
            match moved(&key, *at, table.rows.len()) {
                Some(next) => {
                    at.set(Some(next));
                    said.set(table.reading(next).unwrap_or_default());
                }
                None => said.set(format!("No {} to read yet.", table.part)),
            }
        })
    };
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            let details: web_sys::Element = e.target_unchecked_into();
            open.set(details.has_attribute("open"));
        })
    };
    let table = open.then(|| props.source.table());
    let part = props.source.part();
    let reading_id = format!("{}-reading", props.id);
    html! {
        <>
            <div class="chart-keys" id={props.id.clone()} tabindex="0" role="group" data-own-keys="true"
                aria-roledescription="chart"
                aria-label={format!("{}: the arrow keys read its {part}s one at a time, Home and End the first and the last", props.name)}
                {onkeydown}>
                { props.children.clone() }
                <p class="chart-reading" id={reading_id} aria-live="polite">{ (*said).clone() }</p>
            </div>
            <details class="chart-data" {ontoggle}>
                <summary>{ "Data table" }</summary>
                if let Some(table) = table {
                    { data_table(&table) }
                }
            </details>
        </>
    }
}

/// The table itself, in a region that scrolls sideways when it is wider than the screen.
fn data_table(table: &ChartTable) -> Html {
    html! {
        <div class="chart-data-scroll" role="region" tabindex="0" aria-label={table.caption.clone()}>
            <table>
                <caption class="visually-hidden">{ &table.caption }</caption>
                <thead>
                    <tr>{ for table.columns.iter().map(|c| html! { <th scope="col">{ c }</th> }) }</tr>
                </thead>
                <tbody>
                    { for table.rows.iter().map(|row| html! {
                        <tr>
                            { for row.iter().enumerate().map(|(i, cell)| if i == 0 {
                                html! { <th scope="row">{ cell }</th> }
                            } else {
                                html! { <td>{ cell }</td> }
                            }) }
                        </tr>
                    }) }
                </tbody>
            </table>
            if table.rows.is_empty() {
                <p>{ format!("No {} yet: press Play.", table.part) }</p>
            }
        </div>
    }
}
