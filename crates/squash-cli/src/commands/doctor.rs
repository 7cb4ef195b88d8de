//! `squash doctor`: which model providers are configured, and do they answer.

use clap::Args;
use squash_app::doctor::{self, DoctorOptions};

use crate::commands::ai::cancel_on_ctrl_c;
use crate::output::Output;
use crate::remedy::words;

#[derive(Args, Debug)]
pub struct DoctorArgs {
    /// Only show the configuration; send no request.
    #[arg(long)]
    pub no_probe: bool,
    /// Also run the Claude CLI once (slow: it starts a whole agent runtime).
    #[arg(long)]
    pub probe_cli: bool,
}

pub async fn run(out: &Output, args: &DoctorArgs) -> anyhow::Result<()> {
    let report = doctor::doctor(
        DoctorOptions {
            probe: !args.no_probe,
            probe_cli: args.probe_cli && !args.no_probe,
            words: &words,
        },
        &cancel_on_ctrl_c(),
    )
    .await;
    out.emit(&report, || report.render(&words))
}
