//! Playing strength levels: 1 (a beginner's opponent) to 20 (full strength).
//!
//! A level below 20 is a handicap on the search of a move to play (never on analysis): a node
//! budget that grows by a factor 1.6 a level (level 19 searches a few times fewer nodes than
//! full strength at `10+0.1`, so the top levels stay apart), the rule set's simple hand-set
//! evaluation at the bottom five levels (ten in antidraughts: [`hand_eval_levels`]), a
//! deterministic noise on every evaluated position at the bottom ten, and a choice among the
//! best few root moves (multi-PV) within a margin that shrinks as the level rises, weighted
//! towards the better ones. Level 19 plays its best move at a node budget; from level 9 up the
//! margin stays below the value of a man, so a move that loses a piece to the search's eye is
//! never chosen. This is lidraughts' recipe (node limits and a simple evaluation,
//! `../shared/strength-research.md` section 6) with Stockfish's multi-PV choice on top, so that
//! weak play makes plausible mistakes rather than random moves.

use crate::score::Score;
use crate::variant::Base;

/// Full strength: no handicap.
pub const FULL: u8 = 20;

/// What a level below [`FULL`] changes in the search of a move to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handicap {
    /// Nodes searched at most for a move (the clock may stop the search sooner).
    pub nodes: u64,
    /// Evaluate with the rule set's hand-set weights instead of its learned ones.
    pub hand_eval: bool,
    /// Largest noise added to an evaluation, in centi-men (0: none).
    pub noise: i32,
    /// Root moves searched as separate lines to choose from.
    pub lines: usize,
    /// How far below the best line's score a chosen move may be, in centi-men.
    pub margin: i32,
}

/// The highest level of `base` that evaluates with the hand-set weights: 5, and 10 in
/// antidraughts. Its learned weights play far worse than its hand-set ones at the budgets,
/// noise and margins of levels 6-10 (level L learned against level L hand-set, 100 games
/// each, `kondavo match -v antidraughts --option level=L --option E2:eval-file=hand`:
/// -413, -230, -139, -56 and -42 Elo at levels 6-10, +173 at 12), so that its level 5 beat
/// level 6 by 83% and the ladder fell where the learned weights took over.
pub fn hand_eval_levels(base: Base) -> u8 {
    match base {
        Base::Antidraughts => 10,
        _ => 5,
    }
}

/// The handicap of `level` in `base` (`None` at full strength; levels are clamped to 1..=20).
pub fn handicap(base: Base, level: u8) -> Option<Handicap> {
    let level = level.clamp(1, FULL);
    if level == FULL {
        return None;
    }
    let l = i32::from(level);
    Some(Handicap {
        nodes: (60.0 * 1.6f64.powi(l - 1)).round() as u64,
        hand_eval: level <= hand_eval_levels(base),
        noise: (60 - 6 * (l - 1)).max(0),
        // The bottom three levels choose among more lines with a wider margin: their budgets
        // (60 to 154 nodes) differ too little to set them apart by themselves.
        lines: match level {
            1 => 8,
            2 => 6,
            3..=16 => 4,
            _ => 1,
        },
        margin: if level <= 3 { 350 - 50 * l } else { (200 - 13 * (l - 1)).max(0) },
    })
}

/// The line to play among `scores` (best first, as the search reports its lines): one within
/// `margin` of the best, drawn with weight exp(-(best - score) / (margin / 3)), reproducibly
/// from `seed`. A decisive best score (a found win or loss) is always played.
pub fn choose(scores: &[Score], margin: i32, seed: u64) -> usize {
    let Some(&best) = scores.first() else { return 0 };
    if margin <= 0 || best.is_decisive() || best.is_database() {
        return 0;
    }
    let temperature = f64::from(margin.max(3)) / 3.0;
    let weights: Vec<f64> = scores
        .iter()
        .map(|&s| {
            let gap = (best.0 - s.0).max(0);
            if s.is_decisive() || s.is_database() || gap > margin {
                0.0
            } else {
                (-f64::from(gap) / temperature).exp()
            }
        })
        .collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return 0;
    }
    let mut x = unit(mix(seed)) * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    0
}

/// The noise added to the evaluation of the position with hash `key`: uniform in
/// `-amplitude..=amplitude`, the same every time the position is met in a search (so the hash
/// table stays consistent), different for another `seed`.
#[inline]
pub fn noise(key: u64, seed: u64, amplitude: i32) -> i32 {
    if amplitude <= 0 {
        return 0;
    }
    let span = 2 * amplitude as u64 + 1;
    (mix(key ^ seed.rotate_left(17)) % span) as i32 - amplitude
}

/// SplitMix64's finaliser: a well-mixed 64-bit hash of `x`.
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn unit(x: u64) -> f64 {
    (x >> 11) as f64 / (1u64 << 53) as f64
}

/// A rule set's ladder: the Elo of each level 1..=20 (index 0 is level 1), measured by
/// `kondavo calibrate` and anchored at full strength.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ladder {
    /// The Elo of levels 1 to 20.
    pub elo: [i32; 20],
    /// Where the figures come from.
    pub source: &'static str,
}

/// The ladder of `base`, once measured: its own, or the one it shares (`SHARED`).
pub fn ladder(base: Base) -> Option<&'static Ladder> {
    let base = shared_with(base).unwrap_or(base);
    LADDERS.iter().find(|(b, _)| *b == base).map(|(_, l)| l)
}

/// The rule set whose ladder `base` plays on, when it has none of its own.
pub fn shared_with(base: Base) -> Option<Base> {
    SHARED.iter().find(|(b, _, _)| *b == base).map(|&(_, donor, _)| donor)
}

/// Rule sets that play on another rule set's ladder, and why that is sound: their own levels
/// 1-19, played against each other as `calibrate --no-full` plays them (the node-bound part of
/// a ladder, 2,960 games), score like the donor's pair by pair (`calibrate --like`: the
/// chi-square of the 18 pairs' z-scores). Only the games against full strength, the costly
/// part of a ladder, are not played. README.md shows the figures.
static SHARED: &[(Base, Base, &str)] = &[
    (
        Base::Ukrainian,
        Base::Russian,
        "russian's moves and captures; kondavo calibrate -v ukrainian --no-full --games 40 \
         --low-games 200 --like russian:ladder-russian.pdn: chi-square 23.7 over 18 pairs, \
         p = 0.165 (international, english, italian, turkish: p <= 0.001)",
    ),
    (
        Base::Killer,
        Base::International,
        "international's board, moves and captures but for where a king lands after taking a \
         king; kondavo calibrate -v killer --no-full --games 40 --low-games 200 \
         --like international:ladder-international.pdn: chi-square 23.6 over 18 pairs, \
         p = 0.169 (english, russian, brazilian, italian, czech: p < 0.001; spanish 0.002)",
    ),
];

/// The measured ladders (`kondavo calibrate`, the command in each `source`; full strength at
/// one thread and `10+0.1` is 2500 in every rule set). README.md shows them with their error
/// bars.
static LADDERS: &[(Base, Ladder)] = &[
    (
        Base::International,
        Ladder {
            elo: [
                156, 233, 327, 377, 415, 594, 749, 906, 1056, 1237, 1382, 1541, 1651, 1785, 1879,
                2021, 2160, 2246, 2346, 2500,
            ],
            source: "kondavo calibrate -v international --games 40 --low-games 200 \
                     --full-games 40 --anchor 2500 (10+0.1, 3,222 games, 2026-12-06)",
        },
    ),
    (
        Base::English,
        Ladder {
            elo: [
                300, 422, 551, 626, 712, 957, 1084, 1185, 1292, 1429, 1520, 1635, 1732, 1808, 1941,
                2084, 2250, 2282, 2306, 2500,
            ],
            source: "kondavo calibrate -v english --games 40 --low-games 200 --full-games 40 \
                     --full-from 16 --anchor 2500 (10+0.1, 3,120 games, 2026-12-06)",
        },
    ),
    (
        Base::Russian,
        Ladder {
            elo: [
                703, 749, 830, 871, 947, 1093, 1241, 1327, 1419, 1560, 1675, 1744, 1834, 1977,
                2102, 2225, 2323, 2347, 2371, 2500,
            ],
            source: "kondavo calibrate -v russian --games 40 --low-games 200 --full-games 40 \
                     --full-from 17 --anchor 2500 (10+0.1, 3,080 games, 2026-12-06)",
        },
    ),
    (
        Base::Italian,
        Ladder {
            elo: [
                401, 526, 622, 703, 837, 1147, 1288, 1406, 1508, 1633, 1728, 1812, 1891, 2002,
                2122, 2181, 2284, 2317, 2369, 2500,
            ],
            source: "kondavo calibrate -v italian --games 40 --low-games 200 --full-games 40 \
                     --full-from 16 --anchor 2500 (10+0.1, 3,121 games, 2026-12-06)",
        },
    ),
    (
        Base::Brazilian,
        Ladder {
            elo: [
                798, 884, 951, 1002, 1089, 1194, 1278, 1398, 1484, 1606, 1751, 1840, 1930, 2007,
                2115, 2228, 2374, 2404, 2423, 2500,
            ],
            source: "kondavo calibrate -v brazilian --games 40 --low-games 200 --full-games 40 \
                     --full-from 16 --anchor 2500 (10+0.1, 3,120 games, 2026-12-06)",
        },
    ),
    (
        Base::Turkish,
        Ladder {
            elo: [
                63, 80, 141, 175, 188, 301, 373, 583, 750, 879, 1041, 1150, 1327, 1485, 1649, 1924,
                2160, 2231, 2307, 2500,
            ],
            source: "kondavo calibrate -v turkish --games 40 --low-games 200 --full-games 40 \
                     --full-from 16 --anchor 2500 (10+0.1, 3,120 games, 2026-12-06)",
        },
    ),
    (
        Base::Spanish,
        Ladder {
            elo: [
                830, 923, 986, 1038, 1077, 1111, 1213, 1294, 1447, 1547, 1674, 1790, 1904, 1997,
                2143, 2236, 2367, 2378, 2423, 2500,
            ],
            source: "kondavo calibrate -v spanish --games 40 --low-games 200 --full-games 40 \
                     --full-from 16 --anchor 2500 (10+0.1, 3,120 games, 2026-12-06)",
        },
    ),
    (
        Base::Czech,
        Ladder {
            elo: [
                1030, 1083, 1156, 1178, 1245, 1263, 1403, 1479, 1570, 1667, 1753, 1855, 1975, 2042,
                2146, 2240, 2345, 2400, 2400, 2500,
            ],
            source: "kondavo calibrate -v czech --games 40 --low-games 200 --full-games 40 \
                     --full-from 16 --anchor 2500 (10+0.1, 3,120 games, 2026-12-06; levels \
                     18 and 19, fitted 2401 and 2399, pooled)",
        },
    ),
    (
        Base::Breakthrough,
        Ladder {
            elo: [
                84, 128, 154, 169, 201, 344, 424, 548, 700, 820, 1001, 1109, 1295, 1435, 1592,
                1775, 2004, 2111, 2147, 2500,
            ],
            source: "kondavo calibrate -v breakthrough --games 40 --low-games 200 \
                     --full-games 40 --full-from 16 --anchor 2500 (10+0.1, 3,120 games, \
                     2026-12-06)",
        },
    ),
    (
        Base::Frisian,
        Ladder {
            elo: [
                88, 152, 194, 194, 237, 356, 454, 666, 839, 987, 1111, 1207, 1410, 1579, 1759,
                1943, 2122, 2246, 2248, 2500,
            ],
            source: "kondavo calibrate -v frisian --games 40 --low-games 200 --full-games 40 \
                     --full-from 16 --anchor 2500 (10+0.1, 3,120 games, 2026-12-06; levels 3 \
                     and 4, fitted 204 and 186, pooled)",
        },
    ),
    (
        Base::Frysk,
        Ladder {
            elo: [
                983, 1049, 1081, 1131, 1199, 1318, 1369, 1463, 1558, 1665, 1780, 1868, 1965, 2072,
                2152, 2256, 2325, 2375, 2404, 2500,
            ],
            source: "kondavo calibrate -v frysk --games 40 --low-games 200 --full-games 40 \
                     --full-from 16 --anchor 2500 (10+0.1, 3,120 games, 2026-12-06)",
        },
    ),
    (
        Base::Antidraughts,
        Ladder {
            elo: [
                -140, -6, 206, 459, 813, 920, 1029, 1137, 1281, 1365, 1439, 1569, 1685, 1716, 1822,
                1927, 2182, 2240, 2372, 2500,
            ],
            source: "kondavo calibrate -v antidraughts --games 40 --low-games 200 \
                     --full-games 40 --full-from 16 --anchor 2500 (10+0.1, 3,120 games, \
                     2026-12-06; the hand-set evaluation up to level 10)",
        },
    ),
];

/// The level whose rating is nearest to `elo` on the ladder of `base`, and, when `elo` is
/// outside the ladder's range, the message that says it was clamped. An error when the rule
/// set has no ladder (none today: a rule set added later, until its ladder is measured).
pub fn level_for_elo(base: Base, elo: i32) -> Result<(u8, Option<String>), String> {
    let l = &ladder(base)
        .ok_or_else(|| format!("no measured Elo ladder for {} yet: set level instead", base.id()))?
        .elo;
    let (lo, hi) = (l[0], l[19]);
    let clamped = elo.clamp(lo, hi);
    let message = (clamped != elo).then(|| {
        let shared = shared_with(base).map_or(String::new(), |d| format!(", {}'s", d.id()));
        format!(
            "elo {elo} is outside the {}{shared} ladder ({lo} to {hi}): using {clamped}",
            base.id()
        )
    });
    let level = (0..20).min_by_key(|&i| (l[i] - clamped).abs()).unwrap_or(19) as u8 + 1;
    Ok((level, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_handicap_weakens_steadily_as_the_level_falls() {
        for base in Base::ALL {
            assert!(handicap(base, FULL).is_none());
            for level in 1..FULL - 1 {
                let (a, b) = (handicap(base, level).unwrap(), handicap(base, level + 1).unwrap());
                assert!(a.nodes < b.nodes, "level {level}");
                assert!(a.noise >= b.noise && a.margin >= b.margin && a.lines >= b.lines);
                assert!(a.hand_eval || !b.hand_eval);
            }
            // From level 9 a man is never given away on purpose.
            for level in 9..FULL {
                assert!(handicap(base, level).unwrap().margin < 100, "level {level}");
            }
            assert_eq!(handicap(base, 0), handicap(base, 1));
            let hand = hand_eval_levels(base);
            assert!(handicap(base, hand).unwrap().hand_eval, "{base:?}");
            assert!(!handicap(base, hand + 1).unwrap().hand_eval, "{base:?}");
        }
        assert_eq!(hand_eval_levels(Base::International), 5);
        assert_eq!(hand_eval_levels(Base::Antidraughts), 10);
    }

    #[test]
    fn the_choice_stays_within_the_margin_and_favours_the_better_lines() {
        let scores = [Score(50), Score(30), Score(-10), Score(-300)];
        let mut counts = [0; 4];
        for seed in 0..4000 {
            counts[choose(&scores, 100, seed)] += 1;
        }
        assert_eq!(counts[3], 0, "a line 350 below the best is outside a 100 margin");
        assert!(counts[0] > counts[1] && counts[1] > counts[2] && counts[2] > 0, "{counts:?}");
        assert!((0..100).all(|s| choose(&scores, 0, s) == 0));
        assert!((0..100).all(|s| choose(&[Score::win_in(5), Score(0)], 100, s) == 0));
    }

    #[test]
    fn measured_ladders_rise_with_the_level_and_clamp_ratings_outside_them() {
        assert!(!LADDERS.is_empty());
        for (base, ladder) in LADDERS {
            let elo = &ladder.elo;
            assert!(elo.windows(2).all(|w| w[0] <= w[1]), "{base:?}: {elo:?}");
            assert!(!ladder.source.is_empty());
            for (i, &e) in elo.iter().enumerate() {
                let (level, clamped) = level_for_elo(*base, e).unwrap();
                assert_eq!(elo[usize::from(level) - 1], e, "{base:?} level {}", i + 1);
                assert_eq!(clamped, None);
            }
            let (level, clamped) = level_for_elo(*base, elo[0] - 1).unwrap();
            assert_eq!(level, 1);
            assert!(clamped.is_some_and(|m| m.contains("outside")), "{base:?}");
            let (level, clamped) = level_for_elo(*base, elo[19] + 1).unwrap();
            assert_eq!(level, FULL);
            assert!(clamped.is_some(), "{base:?}");
        }
        // Every rule set has a ladder, its own or a shared one: `elo` is never refused.
        for base in Base::ALL {
            assert!(ladder(base).is_some(), "{base:?} has no ladder");
        }
    }

    #[test]
    fn a_shared_ladder_is_its_donors_and_only_where_none_was_measured() {
        for &(base, donor, why) in SHARED {
            assert!(LADDERS.iter().all(|(b, _)| *b != base), "{base:?} has its own ladder");
            assert!(LADDERS.iter().any(|(b, _)| *b == donor), "{donor:?} has no ladder");
            assert_eq!(ladder(base), ladder(donor));
            assert!(!why.is_empty());
            let top = ladder(donor).unwrap().elo[19];
            assert_eq!(level_for_elo(base, top).unwrap(), (FULL, None));
        }
    }

    #[test]
    fn noise_is_bounded_reproducible_and_seeded() {
        let values: Vec<i32> = (0..1000u64).map(|k| noise(mix(k), 7, 30)).collect();
        assert!(values.iter().all(|v| v.abs() <= 30));
        assert!(values.iter().any(|&v| v > 20) && values.iter().any(|&v| v < -20));
        assert_eq!(noise(12345, 7, 30), noise(12345, 7, 30));
        assert!((0..50u64).any(|k| noise(k, 7, 30) != noise(k, 8, 30)));
        assert_eq!(noise(12345, 7, 0), 0);
    }
}
