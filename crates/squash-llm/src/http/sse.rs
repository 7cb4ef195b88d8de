//! Reading the server-sent events of one streaming answer, with an idle timeout.

use std::pin::Pin;
use std::time::Duration;

use eventsource_stream::{Event, EventStreamError, Eventsource};
use futures::{Stream, StreamExt};
use tokio_util::sync::CancellationToken;

use crate::error::LlmError;
use crate::guard::cancellable;
use crate::http::client::transport_error;

type EventStream =
    Pin<Box<dyn Stream<Item = Result<Event, EventStreamError<reqwest::Error>>> + Send>>;

/// Server-sent events of one streaming answer.
pub(crate) struct SseReader {
    events: EventStream,
    idle_timeout: Duration,
}

impl SseReader {
    /// Streams are timed per event, not as a whole: a long answer that keeps arriving is fine,
    /// a stalled one is not.
    pub(crate) fn new(response: reqwest::Response, idle_timeout: Duration) -> SseReader {
        SseReader {
            events: Box::pin(response.bytes_stream().eventsource()),
            idle_timeout,
        }
    }

    /// The next event, `None` at the end of the stream.
    pub(crate) async fn next(
        &mut self,
        cancel: &CancellationToken,
    ) -> Result<Option<Event>, LlmError> {
        let idle = self.idle_timeout;
        let next = cancellable(cancel, async {
            Ok(tokio::time::timeout(idle, self.events.next()).await)
        })
        .await?;
        match next {
            Err(_) => Err(LlmError::Timeout { after: idle }),
            Ok(None) => Ok(None),
            Ok(Some(Ok(event))) => Ok(Some(event)),
            Ok(Some(Err(EventStreamError::Transport(e)))) => Err(transport_error(e, idle)),
            Ok(Some(Err(e))) => Err(LlmError::MalformedResponse(format!(
                "unreadable event stream: {e}"
            ))),
        }
    }
}
