//! The web's words for what the services say would help ([`Remedy`]): the API's fields and the
//! page's controls, where the CLI names its flags. The one place a remedy becomes the `hint`
//! of an error answer.

use squash_app::remedy::either;
use squash_app::{ImportFormat, Remedy};
use squash_core::tokens::format_count;

/// A remedy as a phrase naming the API's fields.
pub fn words(remedy: &Remedy) -> String {
    match remedy {
        Remedy::ChooseProvider => "choose another provider".into(),
        Remedy::Probe { .. } => "check the provider with `squash doctor`".into(),
        Remedy::RaiseBudget { to } => {
            format!(
                "raise the budget (to {} tokens, it fits)",
                format_count(*to)
            )
        }
        Remedy::KeepLess => {
            "keep less of the newest steps (`keep_recent`) or fewer turns (`keep_last`)".into()
        }
        Remedy::BestEffort => "send `best_effort: true` to apply the smallest reachable".into(),
        Remedy::UseExtract => "choose the extract style (no model needed)".into(),
        Remedy::ConfigureModel => "configure a model (ANTHROPIC_API_KEY, OPENAI_API_KEY or \
                                   OPENAI_BASE_URL, or the claude CLI) and restart `squash \
                                   serve`. Manual squash, edit, delete and undo work without one"
            .into(),
        Remedy::FixProvider { advice } => advice.trim_end_matches('.').into(),
        Remedy::NameFormat { known } => {
            format!("name the format (`format=`: {})", ImportFormat::list(known))
        }
        Remedy::SteerModel => {
            "try again, add instructions to steer the model, or use another model".into()
        }
        Remedy::SelectFewer => {
            "select fewer or shorter messages, or use a model with a larger context window".into()
        }
        Remedy::SelectMore => "select more messages; these few are as short as a note of them \
                               gets (the manual squash joins them as they are)"
            .into(),
        Remedy::MakeRoom => "squash older messages to make room, then try again".into(),
        Remedy::Reload => "reload the conversation and try again".into(),
        Remedy::SwitchBack => {
            "switch back to the thread it was applied to (undo, or pick it among the threads) \
             first"
                .into()
        }
        Remedy::WriteOnly => "install the agent where it is to run the command".into(),
        Remedy::ImportAgain => "delete the conversation (which drops what was done to it) and \
                                import its session file again"
            .into(),
        Remedy::FitCurrent => "send `history: \"current\"` to fit the thread the agent goes on \
                               from"
            .into(),
    }
}

/// The remedies as one sentence, the `hint` of an answer.
pub fn hint(remedies: &[Remedy]) -> Option<String> {
    let phrases: Vec<String> = remedies.iter().map(words).collect();
    let mut sentence = either(&phrases)?;
    if let Some(first) = sentence.get(..1) {
        let upper = first.to_uppercase();
        sentence.replace_range(..1, &upper);
    }
    sentence.push('.');
    Some(sentence)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_are_sentences() {
        assert_eq!(
            hint(&[Remedy::Reload]).as_deref(),
            Some("Reload the conversation and try again.")
        );
        assert_eq!(hint(&[]), None);
        let out_of_reach = hint(&[
            Remedy::RaiseBudget { to: 1_200 },
            Remedy::KeepLess,
            Remedy::BestEffort,
        ])
        .unwrap_or_default();
        assert!(out_of_reach.contains("1,200 tokens"), "{out_of_reach}");
        assert!(out_of_reach.contains("best_effort"), "{out_of_reach}");
        assert!(!out_of_reach.contains("--"), "{out_of_reach}");
    }
}
