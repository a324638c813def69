//! `kondavo annotate`: PDN games in, the same games out with scores, NAGs and better lines.

use clap::Args;
use kondavo::annotate::{self, Annotated, BookCache, Settings};
use kondavo::color::Color;
use kondavo::engine::{Engine, Options};
use kondavo::error::{Error, Result};
use kondavo::pdn::{self, PdnGame};
use kondavo::search::Limits;
use kondavo::variant::Variant;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// Arguments of `kondavo annotate`.
#[derive(Args, Debug)]
pub struct AnnotateArgs {
    /// PDN files (standard input when none, or `-`).
    pub files: Vec<PathBuf>,
    /// Rule set of games without a GameType (or Variant) tag.
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: Variant,
    /// Search this many nodes per position (the default: 500000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), conflicts_with_all = ["depth", "movetime"])]
    pub nodes: Option<u64>,
    /// Search to this depth per position.
    #[arg(long, short = 'd', value_parser = clap::value_parser!(u32).range(1..=100), conflicts_with = "movetime")]
    pub depth: Option<u32>,
    /// Search this many seconds per position.
    #[arg(long)]
    pub movetime: Option<f64>,
    /// Search threads per game.
    #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Games analysed at once (each with its own threads and hash table).
    #[arg(long, short = 'j', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: u32,
    /// Hash table size per game in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: u64,
    /// Judge only this side's moves: white or black.
    #[arg(long)]
    pub side: Option<String>,
    /// First move number judged.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub from_move: u32,
    /// Last move number judged.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub to_move: Option<u32>,
    /// Leave the first N plies of every game alone.
    #[arg(long, default_value_t = 0)]
    pub skip_plies: usize,
    /// Leave alone the plies that lead to one of the rule set's built-in openings (ballots).
    #[arg(long)]
    pub skip_book: bool,
    /// Expected-score losses for ?!, ? and ?? (three numbers between 0 and 1, rising).
    #[arg(long, default_value = "0.05,0.10,0.15")]
    pub thresholds: String,
    /// Plies of the better line written as a variation.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub line_plies: u64,
    /// Also write win/draw/loss chances (per mille, White's) in the comments.
    #[arg(long)]
    pub wdl: bool,
    /// Write the annotated games to this file instead of standard output.
    #[arg(long, short = 'o')]
    pub out: Option<PathBuf>,
    /// Write the summaries (one JSON object per game and line) to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Evaluate the games of `--variant` with this weights file instead of the built-in
    /// weights (`hand`: the hand-set evaluation; games of other rule sets keep theirs).
    #[arg(long)]
    pub eval: Option<String>,
}

/// A game to annotate, or why it cannot be read.
struct Job {
    number: usize,
    source: String,
    game: std::result::Result<PdnGame, String>,
}

fn thresholds(text: &str) -> Result<[f64; 3]> {
    let v: Vec<f64> = text
        .split(',')
        .map(|t| t.trim().parse::<f64>())
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| Error(format!("--thresholds takes three numbers, not \"{text}\"")))?;
    match v[..] {
        [a, b, c] if 0.0 < a && a <= b && b <= c && c <= 1.0 => Ok([a, b, c]),
        _ => Err(Error(format!(
            "--thresholds takes three rising numbers between 0 and 1, not \"{text}\""
        ))),
    }
}

fn read_input(files: &[PathBuf]) -> Result<Vec<Job>> {
    let stdin_only = [PathBuf::from("-")];
    let files = if files.is_empty() { &stdin_only[..] } else { files };
    let mut sources: Vec<(String, String)> = Vec::new();
    for f in files {
        if f.as_os_str() == "-" {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| Error(format!("cannot read standard input: {e}")))?;
            sources.push(("standard input".into(), text));
        } else {
            let bytes =
                std::fs::read(f).map_err(|e| Error(format!("cannot read {}: {e}", f.display())))?;
            sources.push((f.display().to_string(), String::from_utf8_lossy(&bytes).into_owned()));
        }
    }
    let mut jobs = Vec::new();
    for (source, text) in sources {
        for g in pdn::parse_pdn_games(&text) {
            jobs.push(Job {
                number: jobs.len() + 1,
                source: source.clone(),
                game: g.map_err(|e| e.0),
            });
        }
    }
    Ok(jobs)
}

/// Runs `kondavo annotate`.
pub fn run(a: AnnotateArgs) -> Result<()> {
    let mut limits = Limits { depth: a.depth, nodes: a.nodes, ..Limits::default() };
    if let Some(secs) = a.movetime {
        if !secs.is_finite() || secs <= 0.0 || secs > 1e7 {
            return Err(Error(format!(
                "--movetime must be a positive number of seconds, not {secs}"
            )));
        }
        limits.movetime = Some(Duration::from_secs_f64(secs));
    } else if a.depth.is_none() && a.nodes.is_none() {
        limits = Settings::default().limits;
    }
    let side = match a.side.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None => None,
        Some("white" | "w") => Some(Color::White),
        Some("black" | "b") => Some(Color::Black),
        Some(other) => return Err(Error(format!("--side takes white or black, not \"{other}\""))),
    };
    let settings = Settings {
        limits,
        side,
        from_move: a.from_move,
        to_move: a.to_move.unwrap_or(u32::MAX),
        skip_plies: a.skip_plies,
        skip_book: a.skip_book,
        thresholds: thresholds(&a.thresholds)?,
        wdl: a.wdl,
        line_plies: a.line_plies as usize,
        fallback: a.variant,
        eval_file: a.eval.clone(),
        ..Settings::default()
    };
    let options = Options {
        variant: a.variant,
        threads: a.threads as usize,
        hash_mib: a.hash as usize,
        eval_file: a.eval.clone(),
        ..Options::default()
    };
    // The weights file is checked once, before any work.
    Engine::try_new(Options { hash_mib: 1, ..options.clone() })?;
    let jobs = read_input(&a.files)?;
    if jobs.is_empty() {
        return Err(Error("no game in the input".into()));
    }
    let create = |p: &PathBuf| -> Result<std::io::BufWriter<std::fs::File>> {
        std::fs::File::create(p)
            .map(std::io::BufWriter::new)
            .map_err(|e| Error(format!("cannot create {}: {e}", p.display())))
    };
    let mut out: Box<dyn Write> = match &a.out {
        Some(p) => Box::new(create(p)?),
        None => Box::new(std::io::stdout().lock()),
    };
    let mut json = a.json.as_ref().map(create).transpose()?;

    let total: u64 = jobs
        .iter()
        .filter_map(|j| j.game.as_ref().ok())
        .map(|g| annotate::positions_of(g) as u64)
        .sum();
    let bar =
        super::progress_bar(total, "{bar:40} {pos}/{len} positions, {per_sec}, eta {eta} {msg}");

    let book = BookCache::default();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, std::result::Result<Annotated, String>)>();
    let workers = (a.jobs as usize).min(jobs.len()).max(1);
    let mut failed = 0usize;
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..workers {
            let tx = tx.clone();
            let (jobs, settings, book, next, bar, options) =
                (&jobs, &settings, &book, &next, &bar, options.clone());
            std::thread::Builder::new()
                .name("kondavo-annotate".into())
                .stack_size(64 << 20)
                .spawn_scoped(scope, move || {
                    let mut engine = match Engine::try_new(options) {
                        Ok(e) => e,
                        Err(e) => {
                            let _ = tx.send((usize::MAX, Err(e.0)));
                            return;
                        }
                    };
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else { break };
                        let result = match &job.game {
                            Ok(g) => annotate::annotate(
                                &mut engine,
                                g,
                                job.number,
                                settings,
                                book,
                                &mut || bar.inc(1),
                            )
                            .map_err(|e| e.0),
                            Err(e) => Err(e.clone()),
                        };
                        if tx.send((i, result)).is_err() {
                            break;
                        }
                    }
                })
                .map_err(|e| Error(format!("cannot start a worker thread: {e}")))?;
        }
        drop(tx);
        // Results in input order.
        let mut pending: BTreeMap<usize, std::result::Result<Annotated, String>> = BTreeMap::new();
        let mut written = 0usize;
        for (i, r) in rx {
            if i == usize::MAX {
                if let Err(e) = r {
                    return Err(Error(e));
                }
                continue;
            }
            pending.insert(i, r);
            while let Some(r) = pending.remove(&written) {
                let job = &jobs[written];
                match r {
                    Ok(ann) => {
                        out.write_all(ann.pdn.as_bytes()).and_then(|()| out.flush()).map_err(
                            |e| {
                                super::end_if_closed(&e);
                                Error(format!("cannot write the games: {e}"))
                            },
                        )?;
                        bar.suspend(|| eprintln!("{}", annotate::summary_line(&ann.summary)));
                        if let Some(j) = json.as_mut() {
                            let line = serde_json::to_string(&ann.summary)
                                .map_err(|e| Error(format!("cannot write the summary: {e}")))?;
                            writeln!(j, "{line}")
                                .map_err(|e| Error(format!("cannot write the summary: {e}")))?;
                        }
                    }
                    Err(e) => {
                        failed += 1;
                        let who = job
                            .game
                            .as_ref()
                            .ok()
                            .map(|g| {
                                format!(
                                    " ({} - {})",
                                    g.tag("White").unwrap_or("?"),
                                    g.tag("Black").unwrap_or("?")
                                )
                            })
                            .unwrap_or_default();
                        bar.suspend(|| {
                            eprintln!("kondavo: game {}{who} in {}: {e}", job.number, job.source)
                        });
                    }
                }
                written += 1;
            }
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    if let Some(j) = json.as_mut() {
        j.flush().map_err(|e| Error(format!("cannot write the summary: {e}")))?;
    }
    if failed > 0 {
        return Err(Error(format!("{failed} of {} game(s) could not be annotated", jobs.len())));
    }
    Ok(())
}
