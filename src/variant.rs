//! The runtime identity of a rule set: ids, aliases, notation facts, and the one dispatch
//! from a runtime [`Variant`] to a rule type ([`with_rules!`](crate::with_rules)).

use crate::bail;
use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// One of the rule sets, without the optional-capture option.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Base {
    /// International (Polish) draughts, 10x10.
    International,
    /// Brazilian draughts.
    Brazilian,
    /// Russian draughts (shashki).
    Russian,
    /// Ukrainian draughts.
    Ukrainian,
    /// English draughts / American checkers.
    English,
    /// Italian draughts.
    Italian,
    /// Spanish draughts.
    Spanish,
    /// Czech draughts.
    Czech,
    /// Turkish draughts (dama).
    Turkish,
    /// Killer draughts: international, but a king ending its capture on a king lands
    /// directly behind it.
    Killer,
    /// Breakthrough: international moves and captures; the first side to crown a king wins.
    Breakthrough,
    /// Antidraughts (losing draughts): international moves and captures; the side left
    /// without a legal move wins.
    Antidraughts,
    /// Frisian draughts: 10x10, men and kings also capture along rows and columns, the
    /// capture of the greatest value is compulsory.
    Frisian,
    /// Frysk!: frisian rules from five men each on the back row.
    Frysk,
}

/// How a rule set writes squares in its native notation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Squares {
    /// Numbers (`32-28`).
    Numeric,
    /// Algebraic (`c3-d4`).
    Algebraic,
}

impl Base {
    /// The rule sets in their canonical order.
    pub const ALL: [Base; 14] = [
        Base::International,
        Base::Brazilian,
        Base::Russian,
        Base::Ukrainian,
        Base::English,
        Base::Italian,
        Base::Spanish,
        Base::Czech,
        Base::Turkish,
        Base::Killer,
        Base::Breakthrough,
        Base::Antidraughts,
        Base::Frisian,
        Base::Frysk,
    ];

    /// The canonical id.
    pub const fn id(self) -> &'static str {
        match self {
            Base::International => "international",
            Base::Brazilian => "brazilian",
            Base::Russian => "russian",
            Base::Ukrainian => "ukrainian",
            Base::English => "english",
            Base::Italian => "italian",
            Base::Spanish => "spanish",
            Base::Czech => "czech",
            Base::Turkish => "turkish",
            Base::Killer => "killer",
            Base::Breakthrough => "breakthrough",
            Base::Antidraughts => "antidraughts",
            Base::Frisian => "frisian",
            Base::Frysk => "frysk",
        }
    }

    /// Other names accepted for this rule set (lower case).
    pub const fn aliases(self) -> &'static [&'static str] {
        match self {
            Base::International => &["normal", "standard", "polish", "fmjd", "10x10"],
            Base::Brazilian => &["brazil"],
            Base::Russian => &["shashki"],
            Base::Ukrainian => &[],
            Base::English => &["american", "checkers", "draughts"],
            Base::Italian => &[],
            Base::Spanish => &[],
            Base::Czech => &[],
            Base::Turkish => &["dama"],
            Base::Killer => &["killer-draughts"],
            Base::Breakthrough => &["bt"],
            Base::Antidraughts => &["losing", "anti", "giveaway"],
            Base::Frisian => &["fries", "frisian-draughts"],
            Base::Frysk => &["frysk!"],
        }
    }

    /// Parses an id or alias, case-insensitively.
    pub fn from_name(name: &str) -> Option<Base> {
        let lower = name.trim().to_ascii_lowercase();
        Base::ALL.into_iter().find(|b| b.id() == lower || b.aliases().contains(&lower.as_str()))
    }

    /// True for the 10x10 board.
    pub const fn is_10x10(self) -> bool {
        matches!(
            self,
            Base::International
                | Base::Killer
                | Base::Breakthrough
                | Base::Antidraughts
                | Base::Frisian
                | Base::Frysk
        )
    }

    /// How the native notation writes squares.
    pub const fn squares(self) -> Squares {
        match self {
            Base::International
            | Base::Killer
            | Base::Breakthrough
            | Base::Antidraughts
            | Base::Frisian
            | Base::Frysk
            | Base::English
            | Base::Italian
            | Base::Spanish => Squares::Numeric,
            _ => Squares::Algebraic,
        }
    }

    /// The capture separator of the native notation.
    pub const fn capture_separator(self) -> char {
        match self {
            Base::Russian | Base::Ukrainian => ':',
            _ => 'x',
        }
    }

    /// True when native notation writes every landing square of a capture, as the Russian
    /// tradition does (`c3:e5:c7`); otherwise only start and end, with the full path only
    /// when two captures share them.
    pub const fn writes_capture_path(self) -> bool {
        matches!(self, Base::Russian | Base::Ukrainian)
    }

    /// True for the mirrored 8x8 boards (a1 light, playable corner at the lower right).
    pub const fn is_mirrored(self) -> bool {
        matches!(self, Base::Italian | Base::Spanish)
    }

    /// The PDN `GameType` tag value. Killer, breakthrough and antidraughts have no number of
    /// their own (pydraughts writes 20 for them too): they are written with the international
    /// code and a `Variant` tag (see [`crate::pdn::variant_tag`]). Frisian is 40 (PDN
    /// standard; lidraughts, pydraughts); frysk! shares it (pydraughts writes 40, lidraughts
    /// its own 97) with a `Variant` tag.
    pub const fn pdn_gametype(self) -> &'static str {
        match self {
            Base::International | Base::Killer | Base::Breakthrough | Base::Antidraughts => {
                "20,W,10,10,N2,0"
            }
            Base::English => "21,B,8,8,N1,0",
            Base::Italian => "22,W,8,8,N2,1",
            Base::Spanish => "24,W,8,8,N1,1",
            Base::Russian | Base::Ukrainian => "25,W,8,8,A0,0",
            Base::Brazilian => "26,W,8,8,A0,0",
            Base::Czech => "29,W,8,8,A0,0",
            Base::Turkish => "30,W,8,8,A0,0",
            Base::Frisian | Base::Frysk => "40,W,10,10,N2,0",
        }
    }

    /// Pieces per side at the start.
    pub const fn men_per_side(self) -> u32 {
        match self {
            Base::International
            | Base::Killer
            | Base::Breakthrough
            | Base::Antidraughts
            | Base::Frisian => 20,
            Base::Turkish => 16,
            Base::Frysk => 5,
            _ => 12,
        }
    }
}

/// A rule set as chosen at run time: one of the rule sets, with or without the optional-capture
/// house option (8x8 boards only).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Variant {
    /// The rule set.
    pub base: Base,
    /// Capturing is a choice (house option, 8x8 boards only).
    pub optional_capture: bool,
}

impl Variant {
    /// The rule set `base` as published (capture compulsory).
    pub const fn new(base: Base) -> Variant {
        Variant { base, optional_capture: false }
    }

    /// `base` with the optional-capture option; an error on the 10x10 board.
    pub fn with_optional_capture(base: Base, optional: bool) -> Result<Variant> {
        if optional && base.is_10x10() {
            bail!("the optional-capture option exists only for 8x8 rule sets, not {}", base.id());
        }
        Ok(Variant { base, optional_capture: optional })
    }

    /// Every variant: the rule sets, then the optional-capture ones (8x8 only).
    pub fn all() -> Vec<Variant> {
        let mut v: Vec<Variant> = Base::ALL.into_iter().map(Variant::new).collect();
        v.extend(
            Base::ALL
                .into_iter()
                .filter(|b| !b.is_10x10())
                .map(|base| Variant { base, optional_capture: true }),
        );
        v
    }

    /// The canonical name: the base id, with `-optional` for the house option.
    pub fn name(self) -> String {
        if self.optional_capture {
            format!("{}-optional", self.base.id())
        } else {
            self.base.id().to_string()
        }
    }
}

impl Default for Variant {
    fn default() -> Variant {
        Variant::new(Base::International)
    }
}

impl FromStr for Variant {
    type Err = Error;

    /// Parses an id or alias (any case), optionally followed by `-optional` or `+optional`.
    fn from_str(s: &str) -> Result<Variant> {
        let lower = s.trim().to_ascii_lowercase();
        let (name, optional) =
            match lower.strip_suffix("-optional").or_else(|| lower.strip_suffix("+optional")) {
                Some(base) => (base, true),
                None => (lower.as_str(), false),
            };
        match Base::from_name(name) {
            Some(base) => Variant::with_optional_capture(base, optional),
            None => {
                let ids: Vec<&str> = Base::ALL.iter().map(|b| b.id()).collect();
                let shown: String = s.chars().filter(|c| !c.is_control()).take(40).collect();
                bail!("unknown rule set \"{shown}\" (known: {})", ids.join(", "))
            }
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Runs `$body` with `$R` bound to the rule type of the runtime variant `$v`.
///
/// This is the one place where a runtime rule set becomes a type; everything it calls is
/// monomorphised for that rule set.
///
/// ```
/// use kondavo::{with_rules, variant::Variant, position::Position, rules::Rules};
/// let v: Variant = "russian".parse().unwrap();
/// let n = with_rules!(v, R => Position::<R>::start().legal_moves().len());
/// assert_eq!(n, 7);
/// ```
#[macro_export]
macro_rules! with_rules {
    ($v:expr, $R:ident => $body:expr) => {{
        use $crate::variant::Base as __B;
        let __v: $crate::variant::Variant = $v;
        match (__v.base, __v.optional_capture) {
            (__B::International, _) => {
                type $R = $crate::rules::International;
                $body
            }
            (__B::Killer, _) => {
                type $R = $crate::rules::Killer;
                $body
            }
            (__B::Breakthrough, _) => {
                type $R = $crate::rules::Breakthrough;
                $body
            }
            (__B::Antidraughts, _) => {
                type $R = $crate::rules::Antidraughts;
                $body
            }
            (__B::Frisian, _) => {
                type $R = $crate::rules::Frisian;
                $body
            }
            (__B::Frysk, _) => {
                type $R = $crate::rules::Frysk;
                $body
            }
            (__B::Brazilian, false) => {
                type $R = $crate::rules::Brazilian;
                $body
            }
            (__B::Russian, false) => {
                type $R = $crate::rules::Russian;
                $body
            }
            (__B::Ukrainian, false) => {
                type $R = $crate::rules::Ukrainian;
                $body
            }
            (__B::English, false) => {
                type $R = $crate::rules::English;
                $body
            }
            (__B::Italian, false) => {
                type $R = $crate::rules::Italian;
                $body
            }
            (__B::Spanish, false) => {
                type $R = $crate::rules::Spanish;
                $body
            }
            (__B::Czech, false) => {
                type $R = $crate::rules::Czech;
                $body
            }
            (__B::Turkish, false) => {
                type $R = $crate::rules::Turkish;
                $body
            }
            (__B::Brazilian, true) => {
                type $R = $crate::rules::Optional<$crate::rules::Brazilian>;
                $body
            }
            (__B::Russian, true) => {
                type $R = $crate::rules::Optional<$crate::rules::Russian>;
                $body
            }
            (__B::Ukrainian, true) => {
                type $R = $crate::rules::Optional<$crate::rules::Ukrainian>;
                $body
            }
            (__B::English, true) => {
                type $R = $crate::rules::Optional<$crate::rules::English>;
                $body
            }
            (__B::Italian, true) => {
                type $R = $crate::rules::Optional<$crate::rules::Italian>;
                $body
            }
            (__B::Spanish, true) => {
                type $R = $crate::rules::Optional<$crate::rules::Spanish>;
                $body
            }
            (__B::Czech, true) => {
                type $R = $crate::rules::Optional<$crate::rules::Czech>;
                $body
            }
            (__B::Turkish, true) => {
                type $R = $crate::rules::Optional<$crate::rules::Turkish>;
                $body
            }
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_are_accepted_case_insensitively() {
        let cases = [
            ("normal", Base::International),
            ("Standard", Base::International),
            ("POLISH", Base::International),
            ("american", Base::English),
            ("Checkers", Base::English),
            ("dama", Base::Turkish),
            ("russian", Base::Russian),
            ("frisian", Base::Frisian),
            ("frysk", Base::Frysk),
            ("Frysk!", Base::Frysk),
        ];
        for (name, base) in cases {
            assert_eq!(name.parse::<Variant>().unwrap(), Variant::new(base), "{name}");
        }
    }

    #[test]
    fn unknown_rule_set_is_an_error_naming_it() {
        let err = "frisia".parse::<Variant>().unwrap_err();
        assert!(err.0.contains("frisia"), "{err}");
        assert!("international-optional".parse::<Variant>().is_err());
    }

    #[test]
    fn optional_capture_names_round_trip() {
        for v in Variant::all() {
            assert_eq!(v.name().parse::<Variant>().unwrap(), v);
        }
        let boards10 = Base::ALL.iter().filter(|b| b.is_10x10()).count();
        assert_eq!(Variant::all().len(), 2 * Base::ALL.len() - boards10);
    }
}
