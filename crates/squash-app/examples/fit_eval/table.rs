//! The QUALITY.md tables: one row per case and method, then one per method over each kind of
//! case.

use squash_core::tokens::format_count;

use super::run::Row;

fn pct(part: u64, whole: u64) -> String {
    if whole == 0 {
        "–".into()
    } else {
        format!("{:.1}%", part as f64 * 100.0 / whole as f64)
    }
}

fn facts(kept: usize, total: usize) -> String {
    format!("{kept}/{total} ({})", pct(kept as u64, total as u64))
}

/// One line per finished row, for the run's stderr.
pub fn progress_line(r: &Row) -> String {
    match &r.error {
        Some(e) => format!("{:<32} k{} {:<8} ERROR {e}", r.case, r.keep_last, r.method),
        None => format!(
            "{:<32} k{} {:<8} {} messages, tool output {:.0}%: tokens {} → {} ({}) product {} → {} ({}), budget {} {}, steps {}/{}/{}/{} (trim/line/extract/ai), facts {}, {:.1}s{}",
            r.case,
            r.keep_last,
            r.method,
            r.messages_before,
            r.tool_share * 100.0,
            r.tokens_before,
            r.tokens_after,
            pct(r.tokens_after, r.tokens_before),
            r.product_before,
            r.product_after,
            pct(r.product_after, r.product_before),
            r.budget,
            if r.reached { "reached" } else { "NOT reached" },
            r.masks,
            r.lines,
            r.extracts,
            r.ai_squashes,
            facts(r.facts_kept, r.facts_total),
            r.seconds,
            if r.missing.is_empty() {
                String::new()
            } else {
                format!(" missing {:?}", &r.missing[..r.missing.len().min(6)])
            }
        ),
    }
}

pub fn cases(rows: &[Row]) -> String {
    let mut out = String::from(
        "| case | keep last | method | messages | tool output | tokens (scorer) before → after | tokens (product, read back) before → after | product's report | 25% reached | key facts kept | seconds |\n\
         |---|---:|---|---:|---:|---:|---:|---:|---|---:|---:|\n",
    );
    for r in rows {
        if let Some(e) = &r.error {
            out.push_str(&format!(
                "| {} | {} | {} | | | error: {e} | | | | | |\n",
                r.case, r.keep_last, r.method
            ));
            continue;
        }
        out.push_str(&format!(
            "| {} | {} | {} | {} → {} | {:.0}% | {} → {} ({}) | {} → {} ({}) | {} | {} | {} | {:.2} |\n",
            r.case,
            r.keep_last,
            r.method,
            format_count(r.messages_before as u64),
            format_count(r.messages_after as u64),
            r.tool_share * 100.0,
            format_count(r.tokens_before),
            format_count(r.tokens_after),
            pct(r.tokens_after, r.tokens_before),
            format_count(r.product_before),
            format_count(r.product_after),
            pct(r.product_after, r.product_before),
            r.product_reported_after
                .map_or("–".into(), format_count),
            reached(r),
            facts(r.facts_kept, r.facts_total),
            r.seconds
        ));
    }
    out
}

fn reached(r: &Row) -> String {
    if r.reached {
        return "yes".into();
    }
    match r.protected {
        Some(p) => format!("no (protected {})", pct(p, r.product_before)),
        None => "no".into(),
    }
}

/// Per kind of case, keep-last and method: the sums.
pub fn aggregate(rows: &[Row]) -> String {
    let mut out = String::from(
        "| cases | keep last | method | n | tokens (scorer) before → after | tokens (product) before → after | 25% reached | key facts kept | invented path applied | errors | seconds / case |\n\
         |---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut keys: Vec<(&str, usize, &str)> = Vec::new();
    for r in rows {
        let key = (r.origin, r.keep_last, r.method.as_str());
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    for (origin, keep_last, method) in keys {
        let group: Vec<&Row> = rows
            .iter()
            .filter(|r| r.origin == origin && r.keep_last == keep_last && r.method == method)
            .collect();
        let ok: Vec<&&Row> = group.iter().filter(|r| r.error.is_none()).collect();
        let sum = |f: fn(&Row) -> u64| ok.iter().map(|r| f(r)).sum::<u64>();
        let (tb, ta) = (sum(|r| r.tokens_before), sum(|r| r.tokens_after));
        let (pb, pa) = (sum(|r| r.product_before), sum(|r| r.product_after));
        let kept: usize = ok.iter().map(|r| r.facts_kept).sum();
        let total: usize = ok.iter().map(|r| r.facts_total).sum();
        out.push_str(&format!(
            "| {origin} | {keep_last} | {method} | {} | {} → {} ({}) | {} → {} ({}) | {}/{} | {} | {} | {} | {:.2} |\n",
            group.len(),
            format_count(tb),
            format_count(ta),
            pct(ta, tb),
            format_count(pb),
            format_count(pa),
            pct(pa, pb),
            ok.iter().filter(|r| r.reached).count(),
            ok.len(),
            facts(kept, total),
            ok.iter().filter(|r| r.invented_applied).count(),
            group.len() - ok.len(),
            ok.iter().map(|r| r.seconds).sum::<f64>() / ok.len().max(1) as f64,
        ));
    }
    out
}
