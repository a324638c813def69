//! `kondavo bench`: a fixed search of fixed positions that prints a node count. With one
//! thread the count is the same on every run and every machine, so it identifies the search's
//! behaviour: every commit that changes it quotes it as `Bench: N`.
//!
//! Six positions per rule set: the start, an early and a later middlegame, and endgames
//! with kings (most taken from kondavo's own games).

use crate::engine::{Engine, GameSpec, Options};
use crate::error::Result;
use crate::search::{Control, Limits, Mode};
use crate::variant::{Base, Variant};
use std::time::{Duration, Instant};

/// Default search depth of the bench.
pub const DEFAULT_DEPTH: u32 = 9;

/// The bench positions of a rule set (FENs in its own notation, or `start`).
pub fn positions(base: Base) -> &'static [&'static str] {
    match base {
        Base::International => &[
            "start",
            "W:W31-44,46-50:B1-8,10-12,14-20,23",
            "W:W27,31,33-37,39-43,46-50:B1,2,4-8,10-14,16-18,23,24",
            "W:W25,27,30,31,33,35-38,41-43,46,48-50:B1,2,4-7,11,13,14,16-20,22,24",
            "W:W15,20,24,27,32,36:B5,7,9,12,26,K49",
            "B:WK17:B5,K19,26,K37",
        ],
        Base::Killer => &[
            "start",
            "W:W31-44,46-50:B1-8,10-12,14-20,23",
            "W:W27,31,33-37,39-43,46-50:B1,2,4-8,10-14,16-18,23,24",
            "W:W25,27,30,31,33,35-38,41-43,46,48-50:B1,2,4-7,11,13,14,16-20,22,24",
            "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
            "B:WK17:B5,K19,26,K37",
        ],
        Base::Breakthrough => &[
            "start",
            "W:W31-44,46-50:B1-8,10-12,14-20,23",
            "W:W27,31,33-37,39-43,46-50:B1,2,4-8,10-14,16-18,23,24",
            "W:W25,27,30,31,33,35-38,41-43,46,48-50:B1,2,4-7,11,13,14,16-20,22,24",
            "W:W15,20,24,27,32,36:B5,7,9,12,26,37",
            "B:W17,28,33:B5,19,26,37",
        ],
        Base::Antidraughts => &[
            "start",
            "W:W31-44,46-50:B1-8,10-12,14-20,23",
            "W:W27,31,33-37,39-43,46-50:B1,2,4-8,10-14,16-18,23,24",
            "W:W25,27,30,31,33,35-38,41-43,46,48-50:B1,2,4-7,11,13,14,16-20,22,24",
            "W:W15,20,24,27,32,36:B5,7,9,12,26,K49",
            "B:WK17,33:B5,K19,26,37",
        ],
        // Frisian: from kondavo's own games (the evaluation screen at 2000 nodes).
        Base::Frisian => &[
            "start",
            "W:W25,31,33-36,38,39,42-44,46-50:B1-6,8,9,13-16,19,20,22,23",
            "W:W25,26,31,36,39,41,43,44,46-50:B1,2,4-9,11,12,14-16",
            "W:W33,36,41,43,44,46,47,49:B1,2,5,8,11,12,15",
            "W:W31,41,46:B3,K38,39",
            "B:W19,25,K46:B21,26,36",
        ],
        Base::Frysk => &[
            "start",
            "W:W32,37,41,48,50:B1,3,4,14,19",
            "B:W28,37,41,48:B4,13,19,23",
            "W:WK27,41,48:B3,14,K38",
            "W:W29,K44:B4,K12",
            "B:WK17,K35:BK6,14",
        ],
        Base::Brazilian => &[
            "start",
            "W:Wa1,c1,e1,g1,d2,f2,h2,a3,c3,e3,b4:Bf4,c5,d6,h6,a7,c7,g7,b8,d8,f8,h8",
            "W:Wa1,e1,g1,h2,a3,c3,e3,g3:Bc5,e5,b6,d6,g7,d8,f8,h8",
            "W:Wa1,g1,a3,c3,e3,g3:Ba5,c5,d6,c7,g7,h8",
            "W:Wa1,a3,e5,e7:BKe1,g3,g7,b8",
            "B:WKh2,e7,Kd8:BKa5,Kh6,b8",
        ],
        Base::Russian | Base::Ukrainian => &[
            "start",
            "W:Wa1,c1,e1,g1,b2,d2,h2,a3,e3,g3,b4:Bh4,e5,b6,h6,a7,c7,g7,b8,d8,f8,h8",
            "W:Wa1,g1,b2,h2,a3,c3,e3,g3,b4:Ba5,e5,d6,f6,h6,a7,b8,d8,h8",
            "W:Wa1,g1,b2,a3,c3,e3,b4:Bh4,a5,c5,d6,f6,b8,h8",
            "W:Wa1,a3,e5,e7:BKe1,g3,g7,b8",
            "B:WKc5,Kf6:BKd2,Kc7",
        ],
        Base::English => &[
            "start",
            "B:W9,19,21,23,24,26,27,29-32:B1-4,6-8,10-12",
            "B:W19,21-24,29,30,32:B1-4,10,12,13,15",
            "B:W12,18,21,29,32:B1,4,10,13,28",
            "W:W12,18,21,23,29:B4,9,10,13,K32",
            "B:WK9,K10,14,29:B4,K19,K23,26",
        ],
        Base::Italian => &[
            "start",
            "W:W22-27,29-32:B1-7,9,11,15,21",
            "W:W20,22-24,26,28,30,32:B1-4,7,9,11,15,21",
            "W:WK15,17,24,28,30,32:B1,3,8,9,12,K23",
            "B:WK2,17,24,28,30,32:B1,3,4,9,12,27",
            "B:WK3,K5,K16,32:B8,14,K21,K27",
        ],
        Base::Spanish => &[
            "start",
            "W:W1-5,7-11,15:B18,20,22-24,26,27,29-32",
            "W:W1-5,9,14:B7,17,22,24,25,30-32",
            "W:W2,3,9-11:B17,20,22,23,25",
            "W:W3,13,15,22:BK4,16,23,25",
            "W:WK10,1:BK8,9",
        ],
        Base::Czech => &[
            "start",
            "W:Wa1,c1,e1,g1,d2,f2,h2,a3,c3,g3:Be3,c5,d6,h6,c7,e7,g7,b8,d8,f8,h8",
            "W:Wa1,e1,g1,b2,a3,c3,e3,f4,h4:Ba5,c5,b6,d6,f6,h6,b8,f8,h8",
            "W:Wa1,b2,f2,g3,f4,h4,c5:Ba3,a5,f6,h6,a7,e7,g7",
            "B:Wa1,f2,g3,d4,h4,c5,Kf8:Bb2,a5,f6,a7,e7",
            "B:Wa1,Kc1,Ke5:Ba3,Kb6",
        ],
        Base::Turkish => &[
            "start",
            "W:Wa2,b2,d2,e2,f2,g2,h2,a3,c3,d3,e3,g3,h3,b4,c4,f4:Bd5,e5,g5,a6,b6,c6,d6,f6,h6,a7,b7,c7,e7,f7,g7,h7",
            "W:Wa2,c2,e2,g2,h2,a3,b3,c3,d3,e3,f3,h3,a4,c4,f4,h4:Ba5,d5,e5,f5,a6,b6,c6,d6,e6,f6,g6,b7,d7,f7,g7,h7",
            "W:Wb2,e2,a3,b3,d3,e3,h3,c4,h4:Bf4,a5,b5,a6,d6,e6,g6,h6,g7",
            "W:WKd1,a3,b3,c4:Bf5,g6,h6,Ke8",
            "B:WKa1,Kh1,e3:BKd8,a6,b6",
        ],
    }
}

/// One bench line.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchLine {
    /// Rule set.
    pub variant: Variant,
    /// Position number within the rule set (1-based).
    pub index: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// Depth reached.
    pub depth: u32,
    /// Best move in native notation (`-` if none).
    pub best: String,
    /// Score in the usual form.
    pub score: String,
    /// Time taken.
    pub time: Duration,
}

/// Runs the bench on `variants` at `depth`, with a fresh hash table for each position; calls
/// `line` after each position. Returns the nodes and the time spent searching (the hash
/// tables' allocation and clearing between positions are not counted: they are the bench's
/// own cost, not the search's). `eval_file` replaces the built-in weights (its rule set's
/// positions only make sense then).
pub fn run(
    variants: &[Variant],
    depth: u32,
    threads: usize,
    hash_mib: usize,
    eval_file: Option<&str>,
    line: &mut dyn FnMut(&BenchLine),
) -> Result<(u64, Duration)> {
    let mut total = 0;
    let mut searching = Duration::ZERO;
    for &variant in variants {
        let eval_file = eval_file.map(str::to_string);
        let engine = Engine::try_new(Options {
            variant,
            threads,
            hash_mib,
            eval_file,
            ..Options::default()
        })?;
        for (i, fen) in positions(variant.base).iter().enumerate() {
            engine.new_game();
            let spec = GameSpec { start: fen.to_string(), moves: Vec::new() };
            let limits = Limits { depth: Some(depth), ..Limits::default() };
            let t = Instant::now();
            let done =
                engine.search(&spec, &limits, Mode::Analyze, &Control::new(), &mut |_| {})?;
            let time = t.elapsed();
            total += done.nodes;
            searching += time;
            line(&BenchLine {
                variant,
                index: i + 1,
                nodes: done.nodes,
                depth: done.depth,
                best: done.best.map_or("-".into(), |m| m.native),
                score: done.score.to_string(),
                time,
            });
        }
    }
    Ok((total, searching))
}
