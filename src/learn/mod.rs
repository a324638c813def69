//! Offline tools that make the learned evaluation: self-play data generation
//! ([`selfplay`]), its file format ([`data`]) and the trainer ([`train`]). Nothing here runs
//! while the engine plays; the engine only reads the weights files the trainer writes
//! ([`crate::eval::model`]).

pub mod data;
pub mod selfplay;
pub mod train;
pub mod wdl_fit;
