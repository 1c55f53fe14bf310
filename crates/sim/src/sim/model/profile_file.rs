//! A profile as a config file writes it, beside the stack's layers: its order as `order`, a
//! library's settings under the library's key. Reading checks that the two agree, so a
//! [`StackConfig`] always holds one [`Profile`]. The stack's layers are [`StackConfig`]'s own
//! fields and those of its [`super::RoomLayers`]; the profile is read from what they leave, so
//! a key that is neither is refused here.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::dependency_config::StackConfig;
use super::grpc::GrpcStack;
use super::polly::PollyStack;
use super::profile::Profile;
use super::resilience4j::Resilience4jStack;
use crate::resilience::ParamError;
use crate::sim::pattern::Pattern;

/// The keys a profile takes in a stack, the order's first.
const KEYS: [&str; 4] = ["order", "resilience4j", "polly", "grpc"];

impl Serialize for Profile {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry(KEYS[0], self.order())?;
        match self {
            Profile::Lesson000 => {}
            Profile::Resilience4j(s) => map.serialize_entry(KEYS[1], s)?,
            Profile::Polly(s) => map.serialize_entry(KEYS[2], s)?,
            Profile::Grpc(s) => map.serialize_entry(KEYS[3], s)?,
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Profile {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ProfileVisitor)
    }
}

/// What a file wrote of the profile, before it is checked.
#[derive(Default)]
struct Written {
    order: Option<Vec<Pattern>>,
    resilience4j: Option<Resilience4jStack>,
    polly: Option<PollyStack>,
    grpc: Option<GrpcStack>,
}

struct ProfileVisitor;

impl<'de> Visitor<'de> for ProfileVisitor {
    type Value = Profile;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a stack: its layers, `order` and a library's settings")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Profile, A::Error> {
        let mut written = Written::default();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "order" => written.order = Some(map.next_value_seed(Named(&key, PhantomData))?),
                "resilience4j" => {
                    written.resilience4j = map.next_value_seed(Named(&key, PhantomData))?
                }
                "polly" => written.polly = map.next_value_seed(Named(&key, PhantomData))?,
                "grpc" => written.grpc = map.next_value_seed(Named(&key, PhantomData))?,
                _ => return Err(de::Error::custom(unknown_key(&key))),
            }
        }
        written.profile().map_err(de::Error::custom)
    }
}

/// A value read under `key`, its error naming the path inside it (`resilience4j.retry.max_attempts`):
/// what the file's reader adds before it stops at the stack, whose profile is read from what
/// its layers left.
struct Named<'k, T>(&'k str, PhantomData<T>);

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for Named<'_, T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        read_naming(deserializer, Some(self.0))
    }
}

/// Reads a flattened part of a stack (or of a flat file), its error naming the path inside it
/// (a layer's key, then its field's): serde reads a flattened part after the keys around it,
/// where the file's reader can no longer tell which key went wrong.
pub(crate) fn naming_the_path<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    read_naming(deserializer, None)
}

/// Reads a `T`, its error starting with `key` (when there is one) and the path inside it.
fn read_naming<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
    key: Option<&str>,
) -> Result<T, D::Error> {
    serde_path_to_error::deserialize(deserializer).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        match (key, path.as_str()) {
            (None, ".") => inner,
            (None, _) => de::Error::custom(format_args!("{path}: {inner}")),
            (Some(key), ".") => de::Error::custom(format_args!("{key}: {inner}")),
            (Some(key), _) => de::Error::custom(format_args!("{key}.{path}: {inner}")),
        }
    })
}

/// serde's words for a key a stack does not have, naming every key it does.
fn unknown_key(key: &str) -> String {
    let mut every_layer = StackConfig::default();
    Pattern::ALL
        .into_iter()
        .for_each(|p| every_layer.switch_on(p));
    let layers = serde_json::to_value(every_layer).unwrap_or_default();
    let keys: Vec<String> = KEYS
        .iter()
        .map(|k| k.to_string())
        .chain(
            layers
                .as_object()
                .into_iter()
                .flat_map(|m| m.keys().cloned()),
        )
        .filter(|k| k != "order")
        .collect();
    format!(
        "unknown field `{key}`, expected `order` or one of {}",
        keys.iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

impl Written {
    /// The profile the order and the settings describe together.
    fn profile(self) -> Result<Profile, ParamError> {
        let library = |field| {
            ParamError::new(
                field,
                "only with that library's order (retry, breaker, timeout, bulkhead; gRPC's \
                    timeout, retry), and one library's settings"
                    .to_string(),
                "set",
            )
        };
        let order = self
            .order
            .unwrap_or_else(|| Profile::LESSON_000_ORDER.to_vec());
        Ok(
            match (order.as_slice(), self.resilience4j, self.polly, self.grpc) {
                (o, None, None, None) if o == Profile::LESSON_000_ORDER => Profile::Lesson000,
                (o, settings, None, None) if o == Profile::RESILIENCE4J_ORDER => {
                    Profile::Resilience4j(settings.unwrap_or_default())
                }
                (o, None, Some(settings), None) if o == Profile::POLLY_ORDER => {
                    Profile::Polly(settings)
                }
                (o, None, None, settings) if o == Profile::GRPC_ORDER => {
                    Profile::Grpc(settings.unwrap_or_default())
                }
                (o, r4j, polly, _)
                    if [
                        &Profile::LESSON_000_ORDER[..],
                        &Profile::POLLY_ORDER,
                        &Profile::GRPC_ORDER,
                    ]
                    .contains(&o) =>
                {
                    return Err(library(if r4j.is_some() {
                        "resilience4j"
                    } else if polly.is_some() {
                        "polly"
                    } else {
                        "grpc"
                    }))
                }
                (o, _, _, _) => {
                    return Err(ParamError::new(
                        "stack_order",
                        format!(
                        "lesson 000's order ({}), Resilience4j's and Polly's ({}) or gRPC's ({})",
                        keys_of(&Profile::LESSON_000_ORDER),
                        keys_of(&Profile::RESILIENCE4J_ORDER),
                        keys_of(&Profile::GRPC_ORDER)
                    ),
                        format!("{o:?}"),
                    ))
                }
            },
        )
    }
}

/// An order as a file writes it: `bulkhead, breaker, retry`.
fn keys_of(order: &[Pattern]) -> String {
    let names: Vec<String> = order
        .iter()
        .filter_map(|p| serde_json::to_value(p).ok()?.as_str().map(str::to_string))
        .collect();
    names.join(", ")
}
