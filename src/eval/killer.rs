//! Evaluation weights for killer draughts (10x10, flying kings): the international weights.
//! The killer rule only changes where a king stops after taking a king as the last piece of
//! its capture, which makes kings a little easier to trap but changes no other term; the
//! built-in learned model is the international one too ([`super::model_base`]).

use super::{Eval, Weights};
use crate::rules::{International, Killer};

impl Eval for Killer {
    const WEIGHTS: Weights = International::WEIGHTS;
}
