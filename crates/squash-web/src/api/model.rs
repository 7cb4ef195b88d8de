//! Which model AI squashes and chat use, or why there is none.

use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};

use crate::state::{AppState, ModelChoice};

pub async fn status(State(state): State<AppState>) -> Json<Value> {
    Json(match state.model_choice() {
        ModelChoice::Ready(model) => {
            let info = model.info();
            json!({
                "configured": true,
                "provider": info.provider,
                "model": info.model,
                "context_window_tokens": info.context_window_tokens,
            })
        }
        ModelChoice::Missing(reason) => json!({ "configured": false, "reason": reason }),
    })
}
