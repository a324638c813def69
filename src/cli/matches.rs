//! `kondavo match`: engine-against-engine matches of Hub engines, and merging their results.

use super::out;
use clap::Args;
use kondavo::error::{Error, Result};
use kondavo::variant::Variant;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `kondavo match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Rule set.
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: Variant,
    /// An engine command line ("CMD ARGS"); give it twice. Results are for the first.
    #[arg(long = "engine", required_unless_present = "merge")]
    pub engines: Vec<String>,
    /// Engine names, in the order of --engine (default: the program names).
    #[arg(long = "name")]
    pub names: Vec<String>,
    /// An engine parameter NAME=VALUE sent to both engines (E1:NAME=VALUE or E2:NAME=VALUE for one).
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// Games to play (rounded up to whole pairs).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub games: u64,
    /// Time control: T+I (seconds per game plus increment), movetime=S, depth=D or nodes=N.
    #[arg(long, default_value = "10+0.1")]
    pub tc: String,
    /// Openings: builtin, or a file of PDN games or FEN lines.
    #[arg(long, default_value = "builtin")]
    pub openings: String,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub concurrency: u64,
    /// Append every game to this PDN file.
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    /// Continue the match of the --pdn file (same engines, names, --games, --tc, --seed,
    /// --openings, --shard): its games are counted and only the missing ones are played.
    #[arg(long, requires = "pdn")]
    pub resume: bool,
    /// SPRT: elo0,elo1[,alpha,beta]; the match stops when it is decided.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Play shard K of N (K/N): a deterministic share of the game pairs.
    #[arg(long)]
    pub shard: Option<String>,
    /// Seed of the opening order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Adjudication: draw=MOVES:SCORE,win=MOVES:SCORE (scores in men, both engines agreeing).
    #[arg(long)]
    pub adjudicate: Option<String>,
    /// Moves (each side) after which a game is drawn.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_moves: u32,
    /// Clock grace for process and pipe latency, in milliseconds.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=3_600_000))]
    pub margin: u64,
    /// Seconds an engine may take to start, or to answer under depth and node limits.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=31_536_000))]
    pub timeout: u64,
    /// Also write the summary as JSON to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Combine the results of these PDN files (from shards) instead of playing.
    #[arg(long, num_args = 1..)]
    pub merge: Vec<PathBuf>,
    /// PDN Event tag.
    #[arg(long, default_value = "kondavo match")]
    pub event: String,
}

/// Runs `kondavo match`.
pub fn run(a: MatchArgs) -> Result<()> {
    use kondavo::matches::{
        self, Adjudication, MatchConfig, TimeControl, client, openings, stats::Sprt,
    };
    if !a.merge.is_empty() {
        let texts = a
            .merge
            .iter()
            .map(|p| {
                std::fs::read_to_string(p)
                    .map_err(|e| Error(format!("cannot read {}: {e}", p.display())))
            })
            .collect::<Result<Vec<_>>>()?;
        let summary = matches::merge(&texts, a.variant, a.names.first().map(String::as_str))?;
        return print_summary(&summary, a.json.as_deref());
    }
    if a.engines.len() != 2 {
        return Err(Error(format!("give exactly two --engine, not {}", a.engines.len())));
    }
    let mut specs = Vec::new();
    for (i, cmd) in a.engines.iter().enumerate() {
        let command = client::split_command(cmd).map_err(Error)?;
        let default_name = std::path::Path::new(&command[0])
            .file_name()
            .map_or_else(|| command[0].clone(), |n| n.to_string_lossy().into_owned());
        let name = a.names.get(i).cloned().unwrap_or(default_name);
        specs.push(client::EngineSpec { name, command, options: Vec::new() });
    }
    if specs[0].name == specs[1].name {
        specs[0].name.push_str("-1");
        specs[1].name.push_str("-2");
    }
    for o in &a.options {
        let (target, pair) = match o.split_once(':') {
            Some(("E1", rest)) => (Some(0), rest),
            Some(("E2", rest)) => (Some(1), rest),
            _ => (None, o.as_str()),
        };
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| Error(format!("--option takes NAME=VALUE, not \"{o}\"")))?;
        for (i, s) in specs.iter_mut().enumerate() {
            if target.is_none_or(|t| t == i) {
                s.options.push((k.to_string(), v.to_string()));
            }
        }
    }
    let openings = if a.openings == "builtin" {
        openings::builtin(a.variant)?
    } else {
        let text = std::fs::read_to_string(&a.openings)
            .map_err(|e| Error(format!("cannot read {}: {e}", a.openings)))?;
        openings::from_file(&text, a.variant)?
    };
    let shard = match &a.shard {
        Some(s) => {
            let (k, n) = s
                .split_once('/')
                .ok_or_else(|| Error(format!("--shard takes K/N, not \"{s}\"")))?;
            let (k, n): (usize, usize) = (
                k.parse().map_err(|_| Error(format!("bad shard \"{s}\"")))?,
                n.parse().map_err(|_| Error(format!("bad shard \"{s}\"")))?,
            );
            if n == 0 || k == 0 || k > n {
                return Err(Error(format!("--shard K/N needs 1 <= K <= N, not {s}")));
            }
            Some((k, n))
        }
        None => None,
    };
    let cfg = MatchConfig {
        variant: a.variant,
        engines: [specs[0].clone(), specs[1].clone()],
        games: a.games as usize,
        tc: TimeControl::parse(&a.tc)?,
        openings,
        concurrency: a.concurrency as usize,
        pdn: a.pdn.clone(),
        sprt: a.sprt.as_deref().map(Sprt::parse).transpose().map_err(Error)?,
        shard,
        seed: a.seed,
        adjudicate: a
            .adjudicate
            .as_deref()
            .map(Adjudication::parse)
            .transpose()?
            .unwrap_or_default(),
        max_moves: a.max_moves,
        margin: Duration::from_millis(a.margin),
        timeout: Duration::from_secs(a.timeout),
        event: a.event.clone(),
        resume: a.resume,
    };
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(0)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let summary = matches::run(&cfg, &mut |p| {
        bar.set_length(p.total as u64);
        bar.set_position(p.done as u64);
        let e = p.summary.elo();
        let w = &p.summary.wdl;
        bar.set_message(format!(
            "+{} ={} -{}  elo {:.1} +/- {:.1}",
            w.wins, w.draws, w.losses, e.elo, e.interval
        ));
    })?;
    bar.finish_and_clear();
    print_summary(&summary, a.json.as_deref())
}

fn print_summary(
    summary: &kondavo::matches::Summary,
    json: Option<&std::path::Path>,
) -> Result<()> {
    if let Some(path) = json {
        let text = serde_json::to_string_pretty(summary)
            .map_err(|e| Error(format!("cannot write JSON: {e}")))?;
        std::fs::write(path, text + "\n")
            .map_err(|e| Error(format!("cannot write {}: {e}", path.display())))?;
    }
    out!("{}", summary.to_text());
    Ok(())
}
