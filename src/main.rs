//! The `kondavo` command line: parses the arguments and dispatches to the subcommand's file in
//! `cli/`.

mod cli;

use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "kondavo",
    version,
    about = "A draughts engine for every rule set of the draughts family",
    after_help = "With no command and standard input not a terminal, kondavo speaks the Hub protocol."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak the Hub protocol (version 2) on standard input and output.
    Hub,
    /// Count the leaves of the legal-move tree (proves the move generator).
    Perft(cli::perft::PerftArgs),
    /// Search fixed positions to a fixed depth and print the node count (identifies the
    /// search's behaviour; commits that change it quote it as `Bench: N`).
    Bench(cli::bench::BenchArgs),
    /// Analyse positions read from standard input, one per line (FEN, Hub string or
    /// `start`), and print one line per position.
    Analyze(Box<cli::analyze::AnalyzeArgs>),
    /// Annotate PDN games: every position searched, scores after each move, mistakes
    /// marked (?!, ?, ??) with the better line, and a summary per game.
    Annotate(Box<cli::annotate::AnnotateArgs>),
    /// Opening books: build one, describe it, probe a position.
    Book(cli::book::BookArgs),
    /// Endgame databases: build them, list them, probe a position, verify them.
    Egdb(cli::egdb::EgdbArgs),
    /// Play other engines over DXP (DamExchange, TCP): follow their game requests (the
    /// default, as a server on 127.0.0.1:27531) or start a match as the initiator.
    Dxp(kondavo::protocol::dxp::DxpArgs),
    /// Play an engine-against-engine match of Hub engines (game pairs, clocks, PDN, Elo, SPRT).
    Match(Box<cli::matches::MatchArgs>),
    /// Calibrate the strength levels: play the ladder (each level against the next, the upper
    /// ones also against full strength) and fit their Elo, anchored at full strength.
    Calibrate(Box<cli::calibrate::CalibrateArgs>),
    /// Compute a rating list from PDN files (maximum-likelihood Elo with error bars).
    Ratings(cli::ratings::RatingsArgs),
    /// Generate training data: games of the engine against itself at a fixed node budget,
    /// written as quiet positions with results and scores.
    Selfplay(Box<cli::selfplay::SelfplayArgs>),
    /// Fit a weights file to self-play data (logistic regression on the game results).
    Train(Box<cli::train::TrainArgs>),
    /// Fit the win/draw/loss model of a rule set to self-play data (the numbers behind
    /// `wdl=` in analysis).
    Wdl(cli::wdl::WdlArgs),
    /// Weights files of the learned evaluation: describe one, write one scaled.
    Weights(cli::weights::WeightsArgs),
    /// Show a position: board diagram, side to move, FEN and legal moves.
    #[command(alias = "d")]
    Show(cli::show::ShowArgs),
}

fn main() -> ExitCode {
    // Logs go to standard error, each line starting with the engine's name: some clients
    // merge standard error into standard output, and no log line may look like protocol.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format(|buf, record| {
            use std::io::Write as _;
            writeln!(buf, "kondavo {}: {}", record.level().as_str().to_lowercase(), record.args())
        })
        .init();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    ExitCode::SUCCESS
                }
                _ => ExitCode::from(2),
            };
        }
    };
    let command = match cli.command {
        Some(c) => c,
        None if !std::io::stdin().is_terminal() => Command::Hub,
        None => {
            let _ = <Cli as clap::CommandFactory>::command().print_help();
            return ExitCode::SUCCESS;
        }
    };
    let result = match command {
        Command::Hub => {
            kondavo::protocol::session::run(
                std::io::BufReader::new(std::io::stdin()),
                std::io::stdout(),
            );
            Ok(())
        }
        Command::Perft(args) => cli::perft::run(args),
        Command::Bench(args) => cli::bench::run(args),
        Command::Analyze(args) => cli::analyze::run(*args),
        Command::Annotate(args) => cli::annotate::run(*args),
        Command::Dxp(args) => kondavo::protocol::dxp::run(&args),
        Command::Match(args) => cli::matches::run(*args),
        Command::Egdb(args) => cli::egdb::run(args),
        Command::Book(args) => cli::book::run(args),
        Command::Ratings(args) => cli::ratings::run(args),
        Command::Calibrate(args) => cli::calibrate::run(*args),
        Command::Selfplay(args) => cli::selfplay::run(*args),
        Command::Train(args) => cli::train::run(*args),
        Command::Wdl(args) => cli::wdl::run(args),
        Command::Show(args) => cli::show::run(args),
        Command::Weights(args) => cli::weights::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kondavo: {e}");
            ExitCode::from(2)
        }
    }
}
