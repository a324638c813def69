//! Move generation benchmarks: legal move lists on middlegame positions, and bulk-counting
//! perft from the start position, per rule set. `cargo bench --bench movegen`.

use criterion::{BenchmarkId, Criterion, Throughput, black_box, criterion_group, criterion_main};
use kondavo::movegen;
use kondavo::moves::MoveList;
use kondavo::notation::parse_position;
use kondavo::perft::perft;
use kondavo::position::Position;
use kondavo::variant::Variant;
use kondavo::with_rules;

/// Positions with captures, kings and quiet play, per rule set.
const POSITIONS: &[(&str, &str)] = &[
    ("international", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"),
    ("international", "W:WK46,K3,33,34,38:BK5,12,17,22,27,28"),
    ("russian", "W:Wa1,c1,e1,g1,f2,h2,a3,c3,b4,d4:Bc5,e5,g5,d6,h6,a7,c7,e7,g7,b8,f8,h8"),
    ("russian", "W:WKc1:Bb2,d2,b4,d4,f4"),
    ("english", "B:W18,19,21,23,24,26,29,30,31,32:B1,2,3,5,6,7,9,10,12,14"),
    ("italian", "W:W30,26,27,22,23,24,17,18,20:B14,15,16,9,11,5,6,1,3"),
    ("turkish", "W:WKc1,a3,b3,d3:Bc2,d4,e3,b2,Kh8"),
];

fn generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    for (i, (variant, fen)) in POSITIONS.iter().enumerate() {
        let v: Variant = variant.parse().expect("variant");
        with_rules!(v, R => {
            let pos = parse_position::<R>(fen).expect("position");
            group.bench_with_input(BenchmarkId::new(*variant, i), &pos, |b, pos| {
                b.iter(|| {
                    let mut list = MoveList::new();
                    movegen::generate(black_box(pos), &mut list);
                    list.len()
                })
            });
        });
    }
    group.finish();
}

fn perft_start(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft_start");
    group.sample_size(10);
    for (variant, depth) in [("international", 7), ("russian", 8), ("english", 8), ("turkish", 6)] {
        let v: Variant = variant.parse().expect("variant");
        with_rules!(v, R => {
            let pos = Position::<R>::start();
            group.throughput(Throughput::Elements(perft(&pos, depth, true)));
            group.bench_function(BenchmarkId::new(variant, depth), |b| {
                b.iter(|| perft(black_box(&pos), depth, true))
            });
        });
    }
    group.finish();
}

criterion_group!(benches, generation, perft_start);
criterion_main!(benches);
