//! The libraries module (`widget-libraries.js`): "Four libraries, one failure" and nothing
//! else, with the four libraries' readers, for course pages that show it and for the
//! playground's page when the student opens it (`widgets.js` picks it). The explorers' module
//! stays without the readers.

resilience_playground::widget_family_module!(LibraryKinds, "widget-libraries");
