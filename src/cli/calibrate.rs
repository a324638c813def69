//! `kondavo calibrate`: plays the ladder of strength levels (each level against the next, the
//! upper levels also against full strength) and fits their Elo, anchored at full strength.
//!
//! Resumable: the games go to a PDN file, and a rerun plays only what a pair still lacks.

use super::outln;
use clap::Args;
use kondavo::error::{Error, Result};
use kondavo::level::FULL;
use kondavo::matches::ratings::{RatedGame, compare_pairings, rate, rated_games};
use kondavo::matches::stats::{chi_square_sf, monotone};
use kondavo::matches::{self, Adjudication, MatchConfig, TimeControl, client, openings};
use kondavo::variant::Variant;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `kondavo calibrate`.
#[derive(Args, Debug)]
pub struct CalibrateArgs {
    /// Rule set.
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: Variant,
    /// Games per pair of neighbouring levels (rounded up to whole pairs).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
    pub games: u64,
    /// Games per neighbouring pair up to level 15 (budgets of at most 43,235 nodes: a game
    /// takes a second or two, so these pairs can afford many more; default: as --games).
    #[arg(long, value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
    pub low_games: Option<u64>,
    /// Games of each level from --full-from up against full strength.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub full_games: u64,
    /// The lowest level that also plays full strength.
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u8).range(1..=19))]
    pub full_from: u8,
    /// Time control of every game (the levels' node budgets apply within it).
    #[arg(long, default_value = "10+0.1")]
    pub tc: String,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub concurrency: u64,
    /// The PDN file of the ladder's games (read first: a rerun plays only what is missing).
    #[arg(long)]
    pub pdn: PathBuf,
    /// The rating given to full strength.
    #[arg(long, default_value_t = 2500)]
    pub anchor: i32,
    /// Only fit the games already in the PDN file.
    #[arg(long)]
    pub fit_only: bool,
    /// The engine to calibrate (default: this program).
    #[arg(long)]
    pub engine: Option<String>,
    /// Play only levels 1-19, each against the next: the node-bound part of a ladder, with no
    /// game at full strength's clock (ratings relative to level 19). The evidence for `--like`.
    #[arg(long)]
    pub no_full: bool,
    /// Compare each neighbouring pair of levels with the same pair in another rule set's ladder
    /// (`VARIANT:FILE`, the PDN file of its `calibrate`): the pairs' z-scores and their
    /// chi-square. A high p says that this rule set may share that ladder.
    #[arg(long, value_name = "VARIANT:FILE", value_parser = parse_like)]
    pub like: Option<(Variant, PathBuf)>,
}

fn parse_like(text: &str) -> std::result::Result<(Variant, PathBuf), String> {
    let (variant, file) =
        text.split_once(':').ok_or("expected VARIANT:FILE, e.g. russian:ladder-russian.pdn")?;
    if file.is_empty() {
        return Err("expected VARIANT:FILE: the file is missing".into());
    }
    Ok((variant.parse::<Variant>().map_err(|e| e.to_string())?, PathBuf::from(file)))
}

/// The highest level of the pairs that `--low-games` counts.
const LOW_UNTIL: u8 = 15;

fn name(level: u8) -> String {
    format!("level-{level:02}")
}

/// Runs `kondavo calibrate`.
pub fn run(a: CalibrateArgs) -> Result<()> {
    let command = match &a.engine {
        Some(cmd) => client::split_command(cmd).map_err(Error)?,
        None => {
            let exe = std::env::current_exe()
                .map_err(|e| Error(format!("cannot find this program: {e}")))?;
            vec![exe.to_string_lossy().into_owned(), "hub".into()]
        }
    };
    let tc = TimeControl::parse(&a.tc)?;
    let low = a.low_games.unwrap_or(a.games);
    let top = if a.no_full { FULL - 1 } else { FULL };
    let mut pairs: Vec<(u8, u8, u64)> =
        (1..top).map(|l| (l, l + 1, if l < LOW_UNTIL { low } else { a.games })).collect();
    if a.full_games > 0 && !a.no_full {
        pairs.extend((a.full_from..FULL - 1).map(|l| (l, FULL, a.full_games)));
    }
    if !a.fit_only {
        refuse_other_ladder(&a.pdn, a.variant)?;
        let openings = openings::builtin(a.variant)?;
        for &(low, high, games) in &pairs {
            let played = count_games(&a.pdn, a.variant, low, high)?;
            let missing = (games as usize).saturating_sub(played);
            if missing == 0 {
                continue;
            }
            log::info!("calibration: {} against {}, {missing} games", name(low), name(high));
            let spec = |level: u8| client::EngineSpec {
                name: name(level),
                command: command.clone(),
                options: vec![
                    ("level".into(), level.to_string()),
                    ("seed".into(), level.to_string()),
                ],
            };
            let cfg = MatchConfig {
                variant: a.variant,
                engines: [spec(low), spec(high)],
                games: missing,
                tc,
                openings: openings.clone(),
                concurrency: a.concurrency as usize,
                pdn: Some(a.pdn.clone()),
                sprt: None,
                shard: None,
                // Another seed for the games added on a rerun.
                seed: 1 + played as u64,
                adjudicate: Adjudication::default(),
                max_moves: 200,
                margin: Duration::from_millis(100),
                timeout: Duration::from_secs(60),
                event: format!("kondavo calibrate {}", a.variant),
                // (A rerun counts the games per pair of levels itself, above.)
                resume: false,
            };
            let bar = if std::io::stderr().is_terminal() {
                indicatif::ProgressBar::new(missing as u64)
            } else {
                indicatif::ProgressBar::hidden()
            };
            bar.set_message(format!("{} - {}", name(low), name(high)));
            matches::run(&cfg, &mut |p| bar.set_position(p.done as u64))?;
            bar.finish_and_clear();
        }
    }
    let games = read_games(&a.pdn, a.variant)?;
    if games.is_empty() {
        return Err(Error(format!(
            "no finished {} ladder games in {}",
            a.variant,
            a.pdn.display()
        )));
    }
    let list = rate(&games, 0.5);
    let by_level: BTreeMap<u8, _> = list
        .iter()
        .filter_map(|r| r.name.strip_prefix("level-")?.parse::<u8>().ok().map(|l| (l, r)))
        .collect();
    // Full strength is the anchor; without it (`--no-full`) the highest level is 0.
    let (reference, anchor, scale) = match (by_level.get(&FULL), by_level.last_key_value()) {
        (Some(r), _) => (r.elo, a.anchor, format!("full strength = {}", a.anchor)),
        (None, Some((l, r))) => (r.elo, 0, format!("no games at full strength: level {l} = 0")),
        (None, None) => (0.0, 0, "no ladder levels".to_string()),
    };
    outln!("ladder {}: {} games at {}, {scale}", a.variant, games.len(), a.tc);
    outln!("{:>5} {:>6} {:>6} {:>6} {:>6}", "level", "elo", "+/-", "games", "score");
    let mut row = Vec::new();
    for (level, r) in &by_level {
        let elo = (f64::from(anchor) + r.elo - reference).round() as i32;
        row.push(elo);
        outln!(
            "{level:>5} {elo:>6} {:>6.0} {:>6} {:>5.1}%",
            r.error,
            r.games,
            100.0 * r.points / r.games.max(1) as f64
        );
    }
    if row.len() == usize::from(FULL) {
        // The table for `level.rs`: levels rise in strength by construction, so neighbours
        // that the fit puts the wrong way round (within their error bars) are pooled; full
        // strength is the anchor and stays, the levels below it are held at or below it.
        let top = row.len() - 1;
        let values: Vec<f64> = row[..top].iter().map(|&e| f64::from(e)).collect();
        let weights: Vec<f64> =
            by_level.values().take(top).map(|r| 1.0 / r.error.max(1.0).powi(2)).collect();
        let mut fitted: Vec<i32> =
            monotone(&values, &weights).iter().map(|e| (e.round() as i32).min(row[top])).collect();
        fitted.push(row[top]);
        let text: Vec<String> = fitted.iter().map(i32::to_string).collect();
        let pooled: Vec<String> =
            (0..top).filter(|&i| fitted[i] != row[i]).map(|i| (i + 1).to_string()).collect();
        let note = if pooled.is_empty() {
            String::new()
        } else {
            format!(" (levels {} fitted out of order: pooled)", pooled.join(", "))
        };
        outln!("elo: [{}]{note}", text.join(", "));
    }
    if let Some((variant, file)) = &a.like {
        like(&games, *variant, file)?;
    }
    Ok(())
}

/// Prints how each neighbouring pair of levels in `games` scores against the same pair in
/// the ladder of `variant` in `file`, and the chi-square of the differences.
fn like(games: &[RatedGame], variant: Variant, file: &std::path::Path) -> Result<()> {
    let other = read_games(file, variant)?;
    if other.is_empty() {
        return Err(Error(format!("no finished {variant} ladder games in {}", file.display())));
    }
    let pairings: Vec<(String, String)> = (1..FULL).map(|l| (name(l), name(l + 1))).collect();
    let compared = compare_pairings(games, &other, &pairings);
    if compared.is_empty() {
        return Err(Error(format!(
            "{} has no neighbouring pair of levels that this ladder has played",
            file.display()
        )));
    }
    outln!("like {variant}: each pair's score (of the lower level) here and there");
    outln!("{:>7} {:>6} {:>6} {:>6} {:>6} {:>6}", "pair", "games", "score", "games", "score", "z");
    for c in &compared {
        let level = |n: &str| n.trim_start_matches("level-").trim_start_matches('0').to_string();
        outln!(
            "{:>7} {:>6} {:>6.3} {:>6} {:>6.3} {:>+6.2}",
            format!("{}-{}", level(&c.first), level(&c.second)),
            c.games[0],
            c.score[0],
            c.games[1],
            c.score[1],
            c.z
        );
    }
    let chi: f64 = compared.iter().map(|c| c.z * c.z).sum();
    let k = compared.len() as u32;
    outln!("chi-square {chi:.1} over {k} pairs: p = {:.3}", chi_square_sf(chi, k));
    Ok(())
}

/// The text of the PDN file at `path`, or `None` when there is none yet.
fn read_pdn(path: &std::path::Path) -> Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error(format!("cannot read {}: {e}", path.display()))),
    }
}

/// The finished games of `variant` between ladder levels in `path` (none if it is missing).
fn read_games(path: &std::path::Path, variant: Variant) -> Result<Vec<RatedGame>> {
    let Some(text) = read_pdn(path)? else { return Ok(Vec::new()) };
    let mut games = rated_games(&text, variant)?;
    games.retain(|g| g.white.starts_with("level-") && g.black.starts_with("level-"));
    Ok(games)
}

/// An error when the PDN file holds ladder games of another rule set: playing would add a
/// second ladder to it (a `-v` that does not match the file), a mistake that costs the whole
/// calibration's time. Fitting (`--fit-only`, `--like`) reads one rule set's games and is fine.
fn refuse_other_ladder(path: &std::path::Path, variant: Variant) -> Result<()> {
    let Some(text) = read_pdn(path)? else { return Ok(()) };
    let other = kondavo::pdn::parse_pdn(&text)?.iter().find_map(|g| {
        let ladder = g.tag("White").is_some_and(|w| w.starts_with("level-"));
        g.variant().filter(|v| ladder && v.base != variant.base)
    });
    match other {
        Some(v) => Err(Error(format!(
            "{} holds a {} ladder, not {}: give this rule set its own --pdn file",
            path.display(),
            v.base.id(),
            variant.base.id()
        ))),
        None => Ok(()),
    }
}

fn count_games(path: &std::path::Path, variant: Variant, a: u8, b: u8) -> Result<usize> {
    let (a, b) = (name(a), name(b));
    Ok(read_games(path, variant)?
        .iter()
        .filter(|g| (g.white == a && g.black == b) || (g.white == b && g.black == a))
        .count())
}
