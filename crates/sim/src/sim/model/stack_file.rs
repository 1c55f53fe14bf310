//! A stack as a config file writes it: the profile as its `order` list, a library's
//! settings in a field of their own beside it. Reading checks that the two agree, so a
//! [`StackConfig`] always holds one [`Profile`].

use serde::{Deserialize, Serialize};

use super::dependency_config::{SidecarConfig, StackConfig};
use super::grpc::GrpcStack;
use super::hedging::HedgeConfig;
use super::polly::PollyStack;
use super::profile::Profile;
use super::resilience4j::Resilience4jStack;
use crate::resilience::{
    AdaptiveLimitConfig, BreakerConfig, BulkheadConfig, ParamError, RetryBudgetConfig, RetryPolicy,
};
use crate::sim::latency::Micros;
use crate::sim::pattern::Pattern;

fn lesson_000_order() -> Vec<Pattern> {
    Profile::LESSON_000_ORDER.to_vec()
}

/// [`StackConfig`]'s fields as a file has them (every field but `order` as it is there).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StackFile {
    #[serde(default = "lesson_000_order")]
    order: Vec<Pattern>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    resilience4j: Option<Resilience4jStack>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    polly: Option<PollyStack>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    grpc: Option<GrpcStack>,
    #[serde(default)]
    bulkhead: Option<BulkheadConfig>,
    #[serde(default)]
    breaker: Option<BreakerConfig>,
    #[serde(default)]
    business_errors_trip_breaker: bool,
    #[serde(default)]
    retry: Option<RetryPolicy>,
    #[serde(default)]
    retry_budget: Option<RetryBudgetConfig>,
    #[serde(default)]
    timeout: Option<Micros>,
    #[serde(default)]
    sidecar: Option<SidecarConfig>,
    #[serde(default)]
    hedge: Option<HedgeConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    adaptive_limit: Option<AdaptiveLimitConfig>,
}

impl TryFrom<StackFile> for StackConfig {
    type Error = ParamError;

    fn try_from(f: StackFile) -> Result<Self, ParamError> {
        let library = |field| ParamError {
            field,
            range: "only with that library's order (retry, breaker, timeout, bulkhead; gRPC's \
                    timeout, retry), and one library's settings"
                .to_string(),
            value: "set".to_string(),
        };
        let profile = match (f.order.as_slice(), f.resilience4j, f.polly, f.grpc) {
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
                return Err(ParamError {
                    field: "stack_order",
                    range: "lesson 000's order (bulkhead, breaker, retry, timeout, sidecar, \
                            hedge), Resilience4j's and Polly's (retry, breaker, timeout, \
                            bulkhead) or gRPC's (timeout, retry)"
                        .to_string(),
                    value: format!("{o:?}"),
                })
            }
        };
        Ok(StackConfig {
            profile,
            bulkhead: f.bulkhead,
            breaker: f.breaker,
            business_errors_trip_breaker: f.business_errors_trip_breaker,
            retry: f.retry,
            retry_budget: f.retry_budget,
            timeout: f.timeout,
            sidecar: f.sidecar,
            hedge: f.hedge,
            adaptive_limit: f.adaptive_limit,
        })
    }
}

impl From<StackConfig> for StackFile {
    fn from(s: StackConfig) -> Self {
        StackFile {
            order: s.profile.order().to_vec(),
            resilience4j: s.profile.resilience4j().cloned(),
            polly: s.profile.polly().copied(),
            grpc: s.profile.grpc().cloned(),
            bulkhead: s.bulkhead,
            breaker: s.breaker,
            business_errors_trip_breaker: s.business_errors_trip_breaker,
            retry: s.retry,
            retry_budget: s.retry_budget,
            timeout: s.timeout,
            sidecar: s.sidecar,
            hedge: s.hedge,
            adaptive_limit: s.adaptive_limit,
        }
    }
}
