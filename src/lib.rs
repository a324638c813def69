//! kondavo: a headless draughts engine for every rule set of the draughts family.
//!
//! The rules core: board geometries (`geometry`), bit sets (`bitboard`), rule sets as types
//! (`rules`) with the one runtime dispatch (`variant`), positions (`position`), moves and
//! their generation (`moves`, `movegen`), and positions and moves as text (`notation`).

pub mod analyze;
pub mod annotate;
pub mod bench;
pub mod binfile;
pub mod bitboard;
pub mod book;
pub mod color;
pub mod egdb;
pub mod engine;
pub mod error;
pub mod eval;
pub mod game;
pub mod geometry;
pub mod learn;
pub mod level;
pub mod matches;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod pdn;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod rules;
pub mod score;
pub mod search;
pub mod tt;
pub mod variant;
pub mod wdl;
