//! The changes of every process writing to the database, from `LISTEN squash_changes` (see
//! `crate::changes`). One listening connection per store, opened by the first reader.

use std::sync::Weak;
use std::time::Duration;

use sqlx::postgres::PgListener;
use sqlx::PgPool;
use squash_core::ConversationId;
use tokio::sync::broadcast;

use super::error::DbResult;
use crate::changes::CHANNEL;
use crate::Result;

type Sender = broadcast::Sender<ConversationId>;

/// Wait before listening again after the connection failed.
const RETRY: Duration = Duration::from_secs(1);

/// A connection that listens: changes committed from now on reach it.
pub(super) async fn connect(pool: &PgPool) -> Result<PgListener> {
    let mut listener = PgListener::connect_with(pool).await.db()?;
    listener.listen(CHANNEL).await.db()?;
    Ok(listener)
}

/// Forwards what `listener` hears to `changes` until the store (the sender's owner) is gone.
pub(super) fn spawn(listener: PgListener, pool: PgPool, changes: Weak<Sender>) {
    tokio::spawn(async move {
        let mut listener = Some(listener);
        loop {
            let current = match listener.take() {
                Some(l) => Ok(l),
                None => connect(&pool).await,
            };
            let outcome = match current {
                Ok(l) => forward(l, &changes).await,
                Err(e) => Err(e.to_string()),
            };
            if let Err(e) = outcome {
                tracing::warn!(error = %e, "listening for changes failed; retrying");
            }
            if changes.strong_count() == 0 {
                return;
            }
            tokio::time::sleep(RETRY).await;
        }
    });
}

async fn forward(mut listener: PgListener, changes: &Weak<Sender>) -> Result<(), String> {
    loop {
        // `None`: the connection dropped, and notifications may have been lost meanwhile; the
        // next call reconnects and listens again.
        let notification = listener.try_recv().await.map_err(|e| e.to_string())?;
        let Some(sender) = changes.upgrade() else {
            return Ok(());
        };
        match notification {
            Some(n) => match n.payload().parse::<uuid::Uuid>() {
                Ok(id) => {
                    // No reader is not an error.
                    let _ = sender.send(ConversationId::from(id));
                }
                Err(_) => tracing::warn!(payload = n.payload(), "ignored a malformed change"),
            },
            None => tracing::warn!("the change listener lost its connection; reconnecting"),
        }
    }
}
