//! The search's numeric parameters in one place.
//!
//! A normal build uses the defaults as constants. A build with the `tune` feature reads
//! overrides from the environment variable `KONDAVO_TUNE` (`name=value,name=value`), so that
//! one binary can play a match against itself with other settings
//! (`--engine "env KONDAVO_TUNE=pc_margin=8 kondavo hub"`) while a search change is screened;
//! the winning values then become the defaults here.

macro_rules! params {
    ($($(#[$doc:meta])* $name:ident = $default:expr;)*) => {
        /// The search's parameters (see the module documentation).
        #[derive(Clone, Debug)]
        pub(crate) struct Params {
            $($(#[$doc])* pub $name: i32,)*
        }

        /// The defaults: what a normal build searches with.
        pub(crate) const DEFAULT: Params = Params { $($name: $default,)* };

        #[cfg(feature = "tune")]
        impl Params {
            fn set(&mut self, name: &str, value: i32) -> bool {
                match name {
                    $(stringify!($name) => self.$name = value,)*
                    _ => return false,
                }
                true
            }
        }
    };
}

params! {
    /// Aspiration window half-width (centi-men) and the first depth that uses one.
    asp_delta = 30;
    asp_depth = 5;
    /// Static pruning: a quiet non-PV node at depth <= `static_depth` whose evaluation is
    /// `static_margin` per ply above beta stands.
    static_margin = 90;
    static_depth = 3;
    /// ProbCut: margin per ply, reduced depth in percent, first depth, fewest pieces.
    pc_margin = 10;
    pc_percent = 40;
    pc_depth = 3;
    pc_pieces = 10;
    /// Late-move pruning near the horizon: moves kept = `lmp_base` + depth².
    lmp_base = 3;
    /// Late-move reductions: ln(d)·ln(m)·100/`lmr_div`, from move `lmr_moves`.
    lmr_div = 220;
    lmr_moves = 3;
    /// Late-move reductions also of (1 = yes): quiet moves after which the opponent must
    /// capture (exchange offers), killer moves, and all moves of a node whose opponent
    /// threatens a capture. Scan reduces all of them (only captures and promotions are spared).
    lmr_forcing = 0;
    lmr_killer = 0;
    lmr_threat = 0;
    /// Quiescence also tries quiet promotions after stand-pat (0/1).
    qs_promotions = 0;
    /// Exchange offers quiescence may try along a line when no kings are on the board.
    qs_sacs = 0;
    /// Singular extension of the hash move at PV nodes from this depth (0 = off), with the
    /// exclusion window `singular_margin` below the table's score.
    singular_depth = 0;
    singular_margin = 40;
    /// Time: the moves a clock is shared over, at the start and with no men left (linear in
    /// between, by the men gone), on the 50- and 64-square boards and (`tm8_*`) on the
    /// 32-square ones, whose games are shorter; the percent of the soft budget after which no
    /// new iteration starts; the percent the soft budget grows each time the best move
    /// changes or the score drops by `tm_drop` centi-men between iterations (at most doubling
    /// it).
    tm_moves_open = 30;
    tm_moves_end = 30;
    tm8_moves_open = 20;
    tm8_moves_end = 12;
    tm_soft_pct = 60;
    tm_change = 0;
    tm_drop = 30;
    /// Lazy SMP: a helper's next iteration is at least this many plies past the one the
    /// main worker is searching (0: helpers iterate on their own, from depth 1 or 2).
    smp_ahead = 0;
    /// Lazy SMP: a worker entering a node (within 8 plies of the root) that another worker
    /// is searching reduces its late moves this many plies more (0: off).
    smp_marks = 0;
    /// Lazy SMP: the move played is the workers' vote, each giving its move (score - lowest
    /// score + `smp_vote`) × depth votes, as Stockfish does (0: the deepest worker's move).
    smp_vote = 0;
}

/// The parameters in force.
#[cfg(not(feature = "tune"))]
#[inline(always)]
pub(crate) fn params() -> &'static Params {
    &DEFAULT
}

/// The parameters in force: the defaults with `KONDAVO_TUNE`'s overrides.
#[cfg(feature = "tune")]
pub(crate) fn params() -> &'static Params {
    use once_cell::sync::Lazy;
    static TUNED: Lazy<Params> = Lazy::new(|| {
        let mut p = DEFAULT;
        if let Ok(spec) = std::env::var("KONDAVO_TUNE") {
            for item in spec.split(',').filter(|s| !s.is_empty()) {
                let ok = item
                    .split_once('=')
                    .and_then(|(n, v)| Some((n.trim(), v.trim().parse::<i32>().ok()?)))
                    .is_some_and(|(n, v)| p.set(n, v));
                if !ok {
                    log::warn!("KONDAVO_TUNE: cannot use {item:?}");
                }
            }
        }
        log::debug!("search parameters {p:?}");
        p
    });
    &TUNED
}
