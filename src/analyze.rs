//! `kondavo analyze`: one analysis per input line (a FEN, a Hub string or `start`), as a text
//! line or a JSON line, with any number of best lines (multi-PV).

use crate::engine::{Engine, GameSpec, Report};
use crate::error::Result;
use crate::score::Score;
use crate::search::{Control, Limits, Mode};
use crate::wdl::Wdl;
use serde::Serialize;
use std::collections::BTreeMap;

/// One analysed line (the best, or the k-th best in multi-PV).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    /// 1-based rank.
    pub multipv: usize,
    /// First move, native notation.
    pub r#move: String,
    /// First move, Hub notation.
    pub hub: String,
    /// Score in men for the side to move (±99.xx for wins and losses).
    pub score: f64,
    /// Plies to a forced end of the game: positive when winning, negative when losing.
    pub win_in: Option<i32>,
    /// Depth.
    pub depth: u32,
    /// Principal variation, native notation.
    pub pv: Vec<String>,
    /// Win, draw and loss chances of the side to move, per mille.
    pub wdl: [u16; 3],
}

/// The analysis of one position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// The input line.
    pub position: String,
    /// Best move (native), or `None` when the side to move has no legal move.
    pub r#move: Option<String>,
    /// Score of the best move in men.
    pub score: f64,
    /// Plies to a forced end, as in [`Line::win_in`].
    pub win_in: Option<i32>,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Win, draw and loss chances of the side to move, per mille (see [`crate::wdl`]).
    pub wdl: [u16; 3],
    /// Best line first; several with multi-PV.
    pub lines: Vec<Line>,
}

fn men(s: Score) -> f64 {
    s.to_hub().parse().unwrap_or(0.0)
}

fn win_in(s: Score) -> Option<i32> {
    s.plies_to_end().map(|n| if s.0 > 0 { n } else { -n })
}

fn triple(w: Wdl) -> [u16; 3] {
    [w.win, w.draw, w.loss]
}

/// Analyses the position given as text. An engine set to a level below full strength answers
/// with the move that level would play (and its line).
pub fn analyze(engine: &Engine, text: &str, limits: &Limits) -> Result<Analysis> {
    let spec = GameSpec { start: text.to_string(), moves: Vec::new() };
    let mode =
        if engine.options().level < crate::level::FULL { Mode::Think } else { Mode::Analyze };
    // Reports by depth, then by line: with several lines a node or time limit can stop an
    // iteration between its lines, and lines of different iterations must not be mixed (the
    // same move could then appear twice).
    let mut by_depth: BTreeMap<u32, BTreeMap<usize, Report>> = BTreeMap::new();
    let done = engine.search(&spec, limits, mode, &Control::new(), &mut |r| {
        by_depth.entry(r.depth).or_default().insert(r.multipv, r);
    })?;
    let wanted = by_depth.values().map(BTreeMap::len).max().unwrap_or(0);
    let chosen = by_depth.into_values().rev().find(|set| set.len() == wanted).unwrap_or_default();
    let mut lines: Vec<Line> = chosen
        .into_values()
        .filter(|r| !r.pv.is_empty())
        .map(|r| Line {
            multipv: r.multipv,
            r#move: r.pv[0].native.clone(),
            hub: r.pv[0].hub.clone(),
            score: men(r.score),
            win_in: win_in(r.score),
            depth: r.depth,
            pv: r.pv.iter().map(|m| m.native.clone()).collect(),
            wdl: triple(r.wdl),
        })
        .collect();
    // The best line is the search's answer, whatever the last report said.
    if let Some(best) = &done.best {
        let first = Line {
            multipv: 1,
            r#move: best.native.clone(),
            hub: best.hub.clone(),
            score: men(done.score),
            win_in: win_in(done.score),
            depth: done.depth,
            pv: done.pv.iter().map(|m| m.native.clone()).collect(),
            wdl: triple(done.wdl),
        };
        lines.retain(|l| l.multipv != 1 && l.hub != first.hub);
        lines.insert(0, first);
        for (k, l) in lines.iter_mut().enumerate() {
            l.multipv = k + 1;
        }
    }
    Ok(Analysis {
        position: text.to_string(),
        r#move: done.best.map(|m| m.native),
        score: men(done.score),
        win_in: win_in(done.score),
        depth: done.depth,
        nodes: done.nodes,
        wdl: triple(done.wdl),
        lines,
    })
}

impl Analysis {
    /// `best=32-28 score=0.12 wdl=210,760,30 depth=14 nodes=123456 pv="32-28 19-23 …"`, then
    /// `score2=… pv2="…"` for each further line.
    pub fn to_text(&self) -> String {
        let [w, d, l] = self.wdl;
        let mut out = format!(
            "best={} score={:.2} wdl={w},{d},{l} depth={} nodes={}",
            self.r#move.as_deref().unwrap_or("none"),
            self.score,
            self.depth,
            self.nodes
        );
        for l in &self.lines {
            let suffix = if l.multipv == 1 { String::new() } else { l.multipv.to_string() };
            if l.multipv > 1 {
                out.push_str(&format!(" score{suffix}={:.2}", l.score));
            }
            out.push_str(&format!(" pv{suffix}=\"{}\"", l.pv.join(" ")));
        }
        if self.lines.is_empty() {
            out.push_str(" pv=\"\"");
        }
        out
    }

    /// One JSON object on one line.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}
