//! DXP, the DamExchange protocol: engine against engine over TCP (`kondavo dxp`).
//!
//! - `codec`: the seven messages as bytes (pure parse and format) and the `\0` framer.
//! - `link`: one TCP connection, read on a thread of its own into events; paced writes.
//! - `session`: the follower and the initiator, one game loop, clocks, PDN records.
//!
//! TCP server or client and DXP initiator or follower are independent choices. A server
//! serves each connection on a thread of its own (and keeps accepting); a client, or an
//! initiator, serves one connection and returns. Standard output gets one line per event of
//! the match (`listening ADDR`, `connected ADDR`, `game N …`, `chat …`); logs go to standard
//! error. DXP is a 10x10 protocol; on 8x8 boards kondavo uses the Hub square order and Hub
//! colours (`W` moves first), see protocol.md.

pub mod codec;
pub mod link;
pub mod session;

use crate::error::{Error, Result};
use crate::notation;
use crate::variant::Variant;
use crate::with_rules;
use link::Link;
use session::Table;
use std::io::Write;
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The address a server listens on by default (DXP's port).
pub const DEFAULT_LISTEN: &str = "127.0.0.1:27531";
/// Minutes per game when neither the request nor `--time` says.
pub const DEFAULT_MINUTES: f64 = 5.0;
/// How long a client keeps trying to connect.
pub const CONNECT_WAIT: Duration = Duration::from_secs(10);

/// `kondavo dxp`: the command line.
#[derive(clap::Args, Clone, Debug)]
pub struct DxpArgs {
    /// Listen for connections on HOST:PORT (the default, on 127.0.0.1:27531; port 0 picks a
    /// free port, printed as `listening ADDR`).
    #[arg(long, value_name = "HOST:PORT", conflicts_with = "connect")]
    pub listen: Option<String>,
    /// Connect to a DXP server at HOST:PORT instead of listening.
    #[arg(long, value_name = "HOST:PORT")]
    pub connect: Option<String>,
    /// Start the games (initiator); without it kondavo follows the peer's game requests.
    #[arg(long)]
    pub initiator: bool,
    /// Games of the match (initiator), colours alternating.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=100000))]
    pub games: u32,
    /// Minutes per player for a whole game; fractions allowed. The initiator asks for this
    /// (rounded up to whole minutes in the GAMEREQ) and plays with exactly it; a follower plays
    /// with the requested time, at most this, and with this (default 5) when the request gives
    /// none (`000`).
    #[arg(long, value_name = "MINUTES")]
    pub time: Option<f64>,
    /// Moves per player the time is for (initiator; 0 = the whole game).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=999))]
    pub moves: u32,
    /// Rule set (DXP is 10x10; 8x8 rule sets use kondavo's extension).
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: Variant,
    /// Search threads.
    #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Hash table size in MiB (one table per game being played).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: u64,
    /// The name sent to the peer (at most 32 characters are sent).
    #[arg(long, default_value = concat!("kondavo ", env!("CARGO_PKG_VERSION")))]
    pub name: String,
    /// Append every game to this PDN file.
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<PathBuf>,
    /// Start positions for the initiator's games, each played twice with colours reversed:
    /// one FEN or Hub position per line, or a ballot file in JSON (`{"all": {name: FEN}}`).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Play without the opening book (for matches whose openings are set by ballots only).
    #[arg(long)]
    pub no_book: bool,
}

/// What a session needs to know (the command line, checked and loaded).
#[derive(Clone, Debug)]
pub struct Config {
    /// The rule set.
    pub variant: Variant,
    /// Search threads.
    pub threads: usize,
    /// Hash table size in MiB.
    pub hash_mib: usize,
    /// The name sent to the peer.
    pub name: String,
    /// `--time` in minutes, if given.
    pub time: Option<f64>,
    /// Moves per player the time is for (0: the whole game).
    pub moves: u32,
    /// Games the initiator plays.
    pub games: u32,
    /// Where games are appended in PDN.
    pub pdn: Option<PathBuf>,
    /// Start positions of the initiator's games (FEN or Hub strings).
    pub openings: Vec<String>,
    /// Play from the opening book.
    pub book: bool,
}

impl Config {
    /// The configuration of `args`; an error names a bad value or an unreadable file.
    pub fn from_args(args: &DxpArgs) -> Result<Config> {
        if let Some(t) = args.time
            && (!t.is_finite() || t <= 0.0 || t > 999.0)
        {
            return Err(Error(format!(
                "--time must be a number of minutes above 0 and at most 999, not {t}"
            )));
        }
        if matches!(args.variant.base, crate::variant::Base::Frisian | crate::variant::Base::Frysk)
        {
            // DXP has no rule-set field and no DXP program plays frisian: a peer would read
            // orthogonal captures as illegal moves.
            return Err(Error(format!(
                "DXP has no {} (the protocol carries no rule set and no DXP program plays it)",
                args.variant
            )));
        }
        let openings = match &args.openings {
            Some(path) => load_openings(path, args.variant)?,
            None => Vec::new(),
        };
        Ok(Config {
            variant: args.variant,
            threads: args.threads as usize,
            hash_mib: args.hash as usize,
            name: args.name.clone(),
            time: args.time,
            moves: args.moves,
            games: args.games,
            pdn: args.pdn.clone(),
            openings,
            book: !args.no_book,
        })
    }
}

/// Reads start positions: a JSON ballot file (`{"all": {name: FEN}, "standard": [names],
/// "lost": [names]}`: the `standard` names when given, else all, never the `lost` ones) or
/// one position per line (blank lines and `#` comments skipped). Every position must be a
/// legal position of `variant`.
pub fn load_openings(path: &Path, variant: Variant) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error(format!("cannot read {}: {e}", path.display())))?;
    let positions: Vec<String> = if text.trim_start().starts_with('{') {
        let json: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| Error(format!("{} is not valid JSON: {e}", path.display())))?;
        let all = json.get("all").and_then(|a| a.as_object()).ok_or_else(|| {
            Error(format!("{} has no \"all\" object of named positions", path.display()))
        })?;
        let names = |key: &str| -> Vec<String> {
            json.get(key)
                .and_then(|v| v.as_array())
                .map(|a| a.iter().filter_map(|n| n.as_str().map(String::from)).collect())
                .unwrap_or_default()
        };
        let lost = names("lost");
        let chosen = match names("standard") {
            s if s.is_empty() => all.keys().cloned().collect(),
            s => s,
        };
        chosen
            .iter()
            .filter(|n| !lost.contains(n))
            .filter_map(|n| all.get(n).and_then(|v| v.as_str()).map(String::from))
            .collect()
    } else {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(String::from)
            .collect()
    };
    if positions.is_empty() {
        return Err(Error(format!("{} holds no start positions", path.display())));
    }
    for (i, p) in positions.iter().enumerate() {
        with_rules!(variant, R => notation::parse_position::<R>(p).map(|_| ()))
            .map_err(|e| Error(format!("{} position {}: {e}", path.display(), i + 1)))?;
    }
    Ok(positions)
}

/// Writes one line of the match record on standard output (flushed).
pub(crate) fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Runs `kondavo dxp`.
pub fn run(args: &DxpArgs) -> Result<()> {
    let config = Config::from_args(args)?;
    if let Some(address) = &args.connect {
        let stream = connect(address)?;
        return play_connection(stream, &config, args.initiator, true);
    }
    let address = args.listen.as_deref().unwrap_or(DEFAULT_LISTEN);
    let listener = TcpListener::bind(address)
        .map_err(|e| Error(format!("cannot listen on {address}: {e}")))?;
    let local = listener.local_addr().map_or_else(|_| address.to_string(), |a| a.to_string());
    say(&format!("listening {local}"));
    if args.initiator {
        let (stream, _) =
            listener.accept().map_err(|e| Error(format!("cannot accept a connection: {e}")))?;
        return play_connection(stream, &config, true, true);
    }
    serve(listener, config);
    Ok(())
}

/// Serves followers on every connection `listener` accepts, each on its own thread, forever.
pub fn serve(listener: TcpListener, config: Config) {
    let config = std::sync::Arc::new(config);
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(s) => s,
            Err(e) => {
                log::warn!("dxp: cannot accept a connection: {e}");
                // Out of descriptors and the like: give the system a moment.
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        let config = std::sync::Arc::clone(&config);
        let spawned = std::thread::Builder::new().name("kondavo-dxp".into()).spawn(move || {
            if let Err(e) = play_connection(stream, &config, false, false) {
                log::warn!("dxp: {e}");
            }
        });
        if let Err(e) = spawned {
            log::warn!("dxp: cannot start a thread for a connection: {e}");
        }
    }
}

/// Connects to `address`, retrying for [`CONNECT_WAIT`] (the peer may still be starting).
pub fn connect(address: &str) -> Result<TcpStream> {
    let targets: Vec<_> = address
        .to_socket_addrs()
        .map_err(|e| Error(format!("cannot resolve {address}: {e}")))?
        .collect();
    let deadline = Instant::now() + CONNECT_WAIT;
    loop {
        let mut last = None;
        for t in &targets {
            match TcpStream::connect_timeout(t, Duration::from_secs(2)) {
                Ok(s) => return Ok(s),
                Err(e) => last = Some(e),
            }
        }
        if Instant::now() >= deadline {
            let why = last.map_or_else(|| "no address".to_string(), |e| e.to_string());
            return Err(Error(format!("cannot connect to {address}: {why}")));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Plays on one connection: follows (until the peer closes, or with `leave_on_stop` until
/// it wants no further game) or initiates the match.
fn play_connection(
    stream: TcpStream,
    config: &Config,
    initiator: bool,
    leave_on_stop: bool,
) -> Result<()> {
    let mut link =
        Link::new(stream).map_err(|e| Error(format!("cannot use the connection: {e}")))?;
    say(&format!("connected {}", link.peer));
    let mut table = Table::new(&mut link, config);
    let result = with_rules!(config.variant, R => {
        if initiator {
            table.initiate::<R>()
        } else {
            table.follow::<R>(leave_on_stop);
            Ok(())
        }
    });
    say(&format!("disconnected {}", link.peer));
    link.close();
    result
}
