//! The value of a database position and its 16-bit code.
//!
//! Distances count plies to the *conversion*: the first capture or promotion (by either
//! side) on the best line, where the winner hurries and the loser delays. After a
//! conversion the game is in a smaller slice with its own distances, so a winner who keeps
//! converting makes progress and cannot go round in circles.

/// Code of a drawn position (and of one not yet resolved while building).
pub const DRAW: u16 = 0;
/// Code of an index that is not a position.
pub const INVALID: u16 = 1;

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins; the conversion comes in this many plies.
    Win(u16),
    /// A draw with best play.
    Draw,
    /// The side to move loses; the conversion comes in this many plies (0: no move left).
    Loss(u16),
}

impl Value {
    /// The value for the other side (one ply earlier, before the move that led here).
    pub fn flip(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d),
            Value::Loss(d) => Value::Win(d),
            Value::Draw => Value::Draw,
        }
    }

    /// -1, 0 or 1: the result for the side to move.
    pub fn sign(self) -> i32 {
        match self {
            Value::Win(_) => 1,
            Value::Draw => 0,
            Value::Loss(_) => -1,
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d} plies to conversion"),
            Value::Draw => f.write_str("draw"),
            Value::Loss(d) => write!(f, "loss in {d} plies to conversion"),
        }
    }
}

/// The code of a value: 0 draw, 1 not a position, `2 + 2d` loss in `d`, `3 + 2d` win in `d`.
#[inline(always)]
pub fn encode(v: Value) -> u16 {
    match v {
        Value::Draw => DRAW,
        Value::Loss(d) => 2 + 2 * d.min(MAX_DISTANCE),
        Value::Win(d) => 3 + 2 * d.min(MAX_DISTANCE),
    }
}

/// The longest distance a code holds.
pub const MAX_DISTANCE: u16 = (u16::MAX - 3) / 2;

/// The value of a code, `None` for [`INVALID`].
#[inline(always)]
pub fn decode(c: u16) -> Option<Value> {
    match c {
        DRAW => Some(Value::Draw),
        INVALID => None,
        c if c & 1 == 0 => Some(Value::Loss((c - 2) / 2)),
        c => Some(Value::Win((c - 3) / 2)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for v in [Value::Draw, Value::Win(1), Value::Win(77), Value::Loss(0), Value::Loss(40)] {
            assert_eq!(decode(encode(v)), Some(v));
        }
        assert_eq!(decode(INVALID), None);
    }
}
