//! The flat shape of a provenance record: one optional field per thing any kind records, and
//! the kind's tag. Both stores keep it in the columns of `squash_operations`, and an
//! operation's JSON has held these fields since before the record was typed; this module is
//! the one rule between that shape and [`OperationKind`].

use std::fmt;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::kind::{AiRecord, LegacyAiRecord, OperationKind};
use super::{SquashOperation, TokenUsage};
use crate::ids::RecallRef;
use crate::ids::{ConversationId, MessageId, SquashOperationId, ThreadId};
use crate::prompt::{PromptStyle, SquashStyle};
use crate::provider::ProviderKind;

/// The name of an [`OperationKind`], as the `kind` column and JSON field hold it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KindTag {
    Edit,
    Manual,
    Extract,
    Mask,
    Ai,
    AiLegacy,
}

impl KindTag {
    const ALL: [KindTag; 6] = [
        KindTag::Edit,
        KindTag::Manual,
        KindTag::Extract,
        KindTag::Mask,
        KindTag::Ai,
        KindTag::AiLegacy,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            KindTag::Edit => "edit",
            KindTag::Manual => "manual",
            KindTag::Extract => "extract",
            KindTag::Mask => "mask",
            KindTag::Ai => "ai",
            KindTag::AiLegacy => "ai_legacy",
        }
    }

    pub fn parse(name: &str) -> Option<KindTag> {
        KindTag::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl fmt::Display for KindTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the flat `style` field holds: the squash style, or `mask` for a fit's trim (the
/// record said so with a style before masks had a kind of their own).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlatStyle {
    Prose,
    Structured,
    Extract,
    Mask,
}

impl FlatStyle {
    const ALL: [FlatStyle; 4] = [
        FlatStyle::Prose,
        FlatStyle::Structured,
        FlatStyle::Extract,
        FlatStyle::Mask,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FlatStyle::Prose => "prose",
            FlatStyle::Structured => "structured",
            FlatStyle::Extract => "extract",
            FlatStyle::Mask => "mask",
        }
    }

    pub fn parse(name: &str) -> Option<FlatStyle> {
        FlatStyle::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// The squash style, unless this is a mask.
    fn squash_style(self) -> Option<SquashStyle> {
        match self {
            FlatStyle::Prose => Some(SquashStyle::Prose),
            FlatStyle::Structured => Some(SquashStyle::Structured),
            FlatStyle::Extract => Some(SquashStyle::Extract),
            FlatStyle::Mask => None,
        }
    }
}

impl From<SquashStyle> for FlatStyle {
    fn from(style: SquashStyle) -> FlatStyle {
        match style {
            SquashStyle::Prose => FlatStyle::Prose,
            SquashStyle::Structured => FlatStyle::Structured,
            SquashStyle::Extract => FlatStyle::Extract,
        }
    }
}

/// A kind's fields, flat: each `None` where the kind does not record it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlatProvenance {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<ProviderKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_instructions: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<TokenUsage>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<FlatStyle>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_style: Option<PromptStyle>,
}

impl OperationKind {
    /// The kind's name.
    pub fn tag(&self) -> KindTag {
        match self {
            OperationKind::Edit => KindTag::Edit,
            OperationKind::Manual => KindTag::Manual,
            OperationKind::Extract { .. } => KindTag::Extract,
            OperationKind::Mask => KindTag::Mask,
            OperationKind::Ai(_) => KindTag::Ai,
            OperationKind::AiLegacy(_) => KindTag::AiLegacy,
        }
    }

    /// The kind's fields, flat (an extract's and a mask's style say what they are, as the
    /// record did before it had kinds).
    pub fn flat(&self) -> FlatProvenance {
        match self {
            OperationKind::Edit | OperationKind::Manual => FlatProvenance::default(),
            OperationKind::Mask => FlatProvenance {
                style: Some(FlatStyle::Mask),
                ..FlatProvenance::default()
            },
            OperationKind::Extract {
                custom_instructions,
            } => FlatProvenance {
                custom_instructions: custom_instructions.clone(),
                style: Some(FlatStyle::Extract),
                ..FlatProvenance::default()
            },
            OperationKind::Ai(ai) => FlatProvenance {
                prompt: Some(ai.prompt.clone()),
                model: Some(ai.model.clone()),
                provider: Some(ai.provider),
                custom_instructions: ai.custom_instructions.clone(),
                usage: ai.usage,
                duration_ms: Some(ai.duration_ms),
                style: Some(ai.style.into()),
                prompt_style: Some(ai.prompt_style),
            },
            OperationKind::AiLegacy(ai) => FlatProvenance {
                prompt: ai.prompt.clone(),
                model: ai.model.clone(),
                provider: ai.provider,
                custom_instructions: ai.custom_instructions.clone(),
                usage: ai.usage,
                duration_ms: ai.duration_ms,
                style: ai.style.map(FlatStyle::from),
                prompt_style: ai.prompt_style,
            },
        }
    }

    /// The kind `tag` names, with its fields from `flat`; fields the kind does not have are
    /// not read. An `ai` record that lacks something the engine records is an
    /// [`OperationKind::AiLegacy`] (a database migrated from before kinds tags every AI squash
    /// `ai`).
    pub fn from_flat(tag: KindTag, flat: FlatProvenance) -> OperationKind {
        match tag {
            KindTag::Edit => OperationKind::Edit,
            KindTag::Manual => OperationKind::Manual,
            KindTag::Mask => OperationKind::Mask,
            KindTag::Extract => OperationKind::Extract {
                custom_instructions: flat.custom_instructions,
            },
            KindTag::Ai => match complete(flat) {
                Ok(ai) => OperationKind::Ai(ai),
                Err(flat) => OperationKind::AiLegacy(legacy(flat)),
            },
            KindTag::AiLegacy => OperationKind::AiLegacy(legacy(flat)),
        }
    }

    /// The kind of a record written before records had one, from what it held: an agent's
    /// squash is `ai`; otherwise the style says a mask or an extract; otherwise one source is
    /// an edit and more a manual squash. The stores' migrations tag old rows by this same
    /// rule, in SQL.
    pub fn from_legacy(performed_by_agent: bool, sources: usize, flat: FlatProvenance) -> Self {
        let tag = match (performed_by_agent, flat.style) {
            (true, _) => KindTag::Ai,
            (false, Some(FlatStyle::Mask)) => KindTag::Mask,
            (false, Some(FlatStyle::Extract)) => KindTag::Extract,
            (false, _) if sources == 1 => KindTag::Edit,
            (false, _) => KindTag::Manual,
        };
        OperationKind::from_flat(tag, flat)
    }
}

/// The engine's record of an AI squash, if `flat` holds all of it.
fn complete(flat: FlatProvenance) -> Result<AiRecord, FlatProvenance> {
    let style = flat.style.and_then(FlatStyle::squash_style);
    match (flat, style) {
        (
            FlatProvenance {
                prompt: Some(prompt),
                model: Some(model),
                provider: Some(provider),
                custom_instructions,
                usage,
                duration_ms: Some(duration_ms),
                prompt_style: Some(prompt_style),
                ..
            },
            Some(style),
        ) => Ok(AiRecord {
            provider,
            model,
            prompt,
            custom_instructions,
            usage,
            duration_ms,
            style,
            prompt_style,
        }),
        (flat, _) => Err(flat),
    }
}

fn legacy(flat: FlatProvenance) -> LegacyAiRecord {
    LegacyAiRecord {
        provider: flat.provider,
        model: flat.model,
        prompt: flat.prompt,
        custom_instructions: flat.custom_instructions,
        usage: flat.usage,
        duration_ms: flat.duration_ms,
        style: flat.style.and_then(FlatStyle::squash_style),
        prompt_style: flat.prompt_style,
    }
}

/// An operation's JSON as written: the tagged kind with its fields, and what readers of the
/// flat shape look for (`performed_by_agent`; the `style` of an extract or a mask).
#[derive(Serialize)]
struct OperationOut<'a> {
    id: SquashOperationId,
    conversation_id: ConversationId,
    source_message_ids: &'a [MessageId],
    result_message_id: MessageId,
    #[serde(flatten)]
    kind: &'a OperationKind,
    performed_by_agent: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    performed_by: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    base_thread_id: Option<ThreadId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result_thread_id: Option<ThreadId>,
    /// The tagged kind writes the style of an AI squash itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    style: Option<FlatStyle>,
    #[serde(skip_serializing_if = "Option::is_none")]
    recall_ref: Option<RecallRef>,
    created_at: DateTime<Utc>,
}

/// An operation's JSON as read: with `kind` (written by this version) or without (an export
/// of a Squash before it: the kind follows from `performed_by_agent` and the fields).
#[derive(Deserialize)]
struct OperationIn {
    id: SquashOperationId,
    conversation_id: ConversationId,
    source_message_ids: Vec<MessageId>,
    result_message_id: MessageId,
    #[serde(default)]
    kind: Option<KindTag>,
    #[serde(default)]
    performed_by_agent: bool,
    #[serde(default)]
    performed_by: Option<String>,
    #[serde(default)]
    base_thread_id: Option<ThreadId>,
    #[serde(default)]
    result_thread_id: Option<ThreadId>,
    #[serde(default)]
    recall_ref: Option<RecallRef>,
    #[serde(flatten)]
    provenance: FlatProvenance,
    created_at: DateTime<Utc>,
}

impl Serialize for SquashOperation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        OperationOut {
            id: self.id,
            conversation_id: self.conversation_id,
            source_message_ids: &self.source_message_ids,
            result_message_id: self.result_message_id,
            kind: &self.kind,
            performed_by_agent: self.kind.performed_by_agent(),
            performed_by: self.performed_by.as_deref(),
            base_thread_id: self.base_thread_id,
            result_thread_id: self.result_thread_id,
            style: match self.kind {
                OperationKind::Extract { .. } => Some(FlatStyle::Extract),
                OperationKind::Mask => Some(FlatStyle::Mask),
                _ => None,
            },
            recall_ref: self.recall_ref,
            created_at: self.created_at,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for SquashOperation {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let json = OperationIn::deserialize(d)?;
        let kind = match json.kind {
            Some(tag) => OperationKind::from_flat(tag, json.provenance),
            None => OperationKind::from_legacy(
                json.performed_by_agent,
                json.source_message_ids.len(),
                json.provenance,
            ),
        };
        Ok(SquashOperation {
            id: json.id,
            conversation_id: json.conversation_id,
            source_message_ids: json.source_message_ids,
            result_message_id: json.result_message_id,
            kind,
            performed_by: json.performed_by,
            base_thread_id: json.base_thread_id,
            result_thread_id: json.result_thread_id,
            recall_ref: json.recall_ref,
            created_at: json.created_at,
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;

    /// An operation's JSON as Squash wrote it before kinds, with `fields` for its provenance.
    fn old_json(sources: usize, fields: Value) -> Value {
        let mut op = json!({
            "id": SquashOperationId::new(),
            "conversation_id": ConversationId::new(),
            "source_message_ids": (0..sources).map(|_| MessageId::new()).collect::<Vec<_>>(),
            "result_message_id": MessageId::new(),
            "performed_by_agent": false,
            "created_at": "2026-11-30T12:00:00Z",
        });
        for (k, v) in fields.as_object().unwrap() {
            op[k] = v.clone();
        }
        op
    }

    fn read(op: Value) -> SquashOperation {
        serde_json::from_value(op).unwrap()
    }

    fn ai() -> AiRecord {
        AiRecord {
            provider: ProviderKind::OpenAi,
            model: "gpt-4o-mini".into(),
            prompt: "<task>squash</task>".into(),
            custom_instructions: Some("keep paths".into()),
            usage: Some(TokenUsage {
                input_tokens: 321,
                output_tokens: 17,
            }),
            duration_ms: 1500,
            style: SquashStyle::Structured,
            prompt_style: PromptStyle::Structured,
        }
    }

    #[test]
    fn an_export_without_kinds_reads_by_the_old_fields() {
        let edit = read(old_json(1, json!({})));
        assert_eq!(edit.kind, OperationKind::Edit);
        let manual = read(old_json(3, json!({})));
        assert_eq!(manual.kind, OperationKind::Manual);
        let mask = read(old_json(1, json!({"style": "mask"})));
        assert_eq!(mask.kind, OperationKind::Mask);
        let extract = read(old_json(
            2,
            json!({"style": "extract", "custom_instructions": "x"}),
        ));
        assert_eq!(
            extract.kind,
            OperationKind::Extract {
                custom_instructions: Some("x".into())
            }
        );
        let full = read(old_json(
            2,
            json!({"performed_by_agent": true, "prompt": "<task>squash</task>",
                   "model": "gpt-4o-mini", "provider": "open_ai", "custom_instructions": "keep paths",
                   "usage": {"input_tokens": 321, "output_tokens": 17}, "duration_ms": 1500,
                   "style": "structured", "prompt_style": "structured"}),
        ));
        assert_eq!(full.kind, OperationKind::Ai(ai()));
        // Before styles were recorded, and from other tools: what there is.
        let older = read(old_json(
            2,
            json!({"performed_by_agent": true, "model": "sonnet", "provider": "claude_cli"}),
        ));
        assert_eq!(
            older.kind,
            OperationKind::AiLegacy(LegacyAiRecord {
                provider: Some(ProviderKind::ClaudeCli),
                model: Some("sonnet".into()),
                ..LegacyAiRecord::default()
            })
        );
    }

    #[test]
    fn json_keeps_the_flat_fields_and_reads_back() {
        let op = SquashOperation::new(
            SquashOperationId::new(),
            ConversationId::new(),
            vec![MessageId::new(), MessageId::new()],
            MessageId::new(),
            OperationKind::Ai(ai()),
            Some("ana".into()),
        );
        let v = serde_json::to_value(&op).unwrap();
        assert_eq!(v["kind"], "ai");
        assert_eq!(v["performed_by_agent"], true);
        assert_eq!(v["provider"], "openai");
        assert_eq!(v["model"], "gpt-4o-mini");
        assert_eq!(v["style"], "structured");
        assert_eq!(v["usage"]["input_tokens"], 321);
        assert_eq!(read(v), op);

        for kind in [
            OperationKind::Edit,
            OperationKind::Manual,
            OperationKind::Mask,
            OperationKind::Extract {
                custom_instructions: None,
            },
            OperationKind::AiLegacy(LegacyAiRecord {
                model: Some("m".into()),
                ..LegacyAiRecord::default()
            }),
        ] {
            let op = SquashOperation { kind, ..op.clone() };
            let v = serde_json::to_value(&op).unwrap();
            assert_eq!(v["performed_by_agent"], op.kind.performed_by_agent());
            assert_eq!(v["kind"], op.kind.tag().as_str());
            assert_eq!(read(v), op);
        }
        let mask = SquashOperation {
            kind: OperationKind::Mask,
            ..op
        };
        assert_eq!(serde_json::to_value(&mask).unwrap()["style"], "mask");
    }

    #[test]
    fn every_kind_survives_its_flat_fields() {
        for kind in [
            OperationKind::Edit,
            OperationKind::Manual,
            OperationKind::Mask,
            OperationKind::Extract {
                custom_instructions: Some("x".into()),
            },
            OperationKind::Ai(ai()),
            OperationKind::AiLegacy(LegacyAiRecord::default()),
        ] {
            assert_eq!(OperationKind::from_flat(kind.tag(), kind.flat()), kind);
        }
        // An `ai` record missing what the engine records is a legacy one.
        let mut flat = OperationKind::Ai(ai()).flat();
        flat.prompt_style = None;
        assert!(matches!(
            OperationKind::from_flat(KindTag::Ai, flat),
            OperationKind::AiLegacy(_)
        ));
    }
}
