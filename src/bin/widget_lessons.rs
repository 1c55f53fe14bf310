//! The lessons module (`widget-lessons.js`): a lesson's step as a widget, with the charts of
//! one run beside it (circuit diagram, histogram, lesson table), for course pages whose
//! widgets are all of these (`widgets.js` picks it). It holds no exercise, explorer or
//! playground, which only the whole module draws.

resilience_playground::widget_family_module!(LessonKinds, "widget-lessons");
