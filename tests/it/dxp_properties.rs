//! Property tests of the DXP codec: arbitrary bytes never panic the parser or the framer,
//! every message formats to something that parses back to itself, and the framer finds the
//! same messages however the stream is cut into reads.

use kondavo::color::Color;
use kondavo::protocol::dxp::codec::{
    self, Acceptance, BackAnswer, EndReason, Frame, Framer, GameReq, Message, MoveMsg, Setup,
};
use proptest::prelude::*;

fn colour() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::White), Just(Color::Black)]
}

/// A name as a peer sends it: printable ASCII, no blank at either end, at most 32 characters.
fn name() -> impl Strategy<Value = String> {
    "[!-~]([ -~]{0,30}[!-~])?"
}

fn setup() -> impl Strategy<Value = Setup> {
    prop_oneof![
        Just(Setup::Start),
        (colour(), prop_oneof![Just(32usize), Just(50), Just(64)]).prop_flat_map(|(c, n)| {
            proptest::collection::vec(prop_oneof!["e", "w", "z", "W", "Z"], n)
                .prop_map(move |v| Setup::Position { to_move: c, squares: v.concat() })
        }),
    ]
}

fn message() -> impl Strategy<Value = Message> {
    prop_oneof![
        (name(), colour(), 0u32..1000, 0u32..1000, setup()).prop_map(
            |(name, follower, minutes, moves, setup)| {
                Message::GameReq(GameReq { name, follower, minutes, moves, setup })
            }
        ),
        (
            name(),
            prop_oneof![
                Just(Acceptance::Accepted),
                Just(Acceptance::WrongVersion),
                Just(Acceptance::NotThisGame),
                Just(Acceptance::NoGames)
            ]
        )
            .prop_map(|(name, code)| Message::GameAcc { name, code }),
        (0u32..10000, 0u8..100, 0u8..100, proptest::collection::vec(0u8..100, 0..20)).prop_map(
            |(seconds, from, to, captured)| Message::Move(MoveMsg { seconds, from, to, captured })
        ),
        (
            prop_oneof![
                Just(EndReason::Unknown),
                Just(EndReason::ILose),
                Just(EndReason::Draw),
                Just(EndReason::IWin)
            ],
            any::<bool>()
        )
            .prop_map(|(reason, stop)| Message::GameEnd { reason, stop }),
        "[ -~]{0,126}".prop_map(Message::Chat),
        (0u32..1000, colour())
            .prop_map(|(move_number, to_move)| Message::BackReq { move_number, to_move }),
        prop_oneof![
            Just(BackAnswer::Accepted),
            Just(BackAnswer::NotSupported),
            Just(BackAnswer::Continue)
        ]
        .prop_map(Message::BackAcc),
    ]
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = codec::parse(&bytes);
        let _ = codec::gamereq_version(&bytes);
        let _ = codec::shown(&bytes);
        let mut f = Framer::new();
        for frame in f.push(&bytes) {
            if let Frame::Message(m) = frame {
                prop_assert!(!m.is_empty() && !m.contains(&0));
                let _ = codec::parse(&m);
            }
        }
    }

    #[test]
    fn mutated_messages_never_panic(m in message(), at in any::<usize>(), byte in any::<u8>(), cut in any::<usize>()) {
        let mut bytes = m.to_string().into_bytes();
        if !bytes.is_empty() {
            let i = at % bytes.len();
            bytes[i] = byte;
            bytes.truncate(1 + cut % bytes.len());
        }
        let _ = codec::parse(&bytes);
    }

    #[test]
    fn messages_round_trip(m in message()) {
        let text = m.to_string();
        prop_assert!(text.len() <= codec::MAX_MESSAGE, "{} characters: {text}", text.len());
        prop_assert!(text.bytes().all(|b| (0x20..0x7f).contains(&b)), "{text}");
        let back = codec::parse(text.as_bytes());
        prop_assert_eq!(back, Ok(m), "{}", text);
    }

    #[test]
    fn framing_ignores_how_reads_are_cut(
        ms in proptest::collection::vec(message(), 1..8),
        cuts in proptest::collection::vec(any::<usize>(), 0..12),
    ) {
        let stream: Vec<u8> = ms.iter().flat_map(|m| {
            let mut b = m.to_string().into_bytes();
            b.push(0);
            b
        }).collect();
        let mut points: Vec<usize> = cuts.iter().map(|c| c % (stream.len() + 1)).collect();
        points.sort_unstable();
        let mut f = Framer::new();
        let mut got = Vec::new();
        let mut last = 0;
        for p in points.into_iter().chain(std::iter::once(stream.len())) {
            got.extend(f.push(&stream[last..p]));
            last = p;
        }
        let want: Vec<Frame> = ms
            .iter()
            .map(|m| Frame::Message(m.to_string().into_bytes()))
            .collect();
        prop_assert_eq!(got, want);
        prop_assert_eq!(f.pending(), 0);
    }
}
