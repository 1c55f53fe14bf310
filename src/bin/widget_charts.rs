//! The charts module (`widget-charts.js`): the widgets that show one run (circuit diagram,
//! histogram, lesson table) and nothing else, for course pages whose widgets are all of these
//! (`widgets.js` picks it). Every other widget kind is the whole module's (src/main.rs).

resilience_playground::widget_family_module!(ChartKinds, "widget-charts");
