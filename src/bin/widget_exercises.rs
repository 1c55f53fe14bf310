//! The exercises module (`widget-exercises.js`): the lessons' four exercises as widgets, for
//! the exercises' page and course pages whose widgets are all exercises (`widgets.js` picks
//! it). It holds no lesson, explorer or playground, which other modules draw.

resilience_playground::widget_family_module!(ExerciseKinds, "widget-exercises");
