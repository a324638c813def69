//! Pattern windows: groups of squares whose men index a weight table, and the default window
//! layout of each board shape.
//!
//! A window is listed from White's side (its squares as internal square indices, in increasing
//! order). Every window is read twice: from White's side (a white man is digit 1, a black man
//! digit 2, anything else 0) and, rotated by 180 degrees, from Black's side (a black man is
//! digit 1, a white man digit 2). Both readings index the same table; White's adds its weight
//! and Black's subtracts it, so an evaluation built from windows is colour-symmetric by
//! construction (Scan shares its tables between colours the same way). The squares of the
//! window's `j`-th digit are its `j`-th square and that square's rotation.
//!
//! Kings are not in these windows (a king square reads as empty): kings are few and mobile, and
//! the scalar terms of [`super::model`] score them. The `kings` layout adds *king windows*,
//! read with five digits per square (empty, own man, other man, own king, other king) and only
//! while a king is on the board, for the flying-king games where kings come early.

use crate::geometry::Shape;

/// The largest window: 3^12 = 531,441 entries per table.
pub const MAX_WINDOW: usize = 12;

/// Board width of a shape.
pub const fn size_of(shape: Shape) -> usize {
    match shape {
        Shape::Diagonal10 => 10,
        Shape::Diagonal8 | Shape::Orthogonal8 => 8,
    }
}

/// Playable squares of a shape.
pub const fn squares_of(shape: Shape) -> usize {
    match shape {
        Shape::Diagonal10 => 50,
        Shape::Diagonal8 => 32,
        Shape::Orthogonal8 => 64,
    }
}

/// Internal square at (row, column), if playable (same numbering as [`crate::geometry`]).
pub fn square_at(shape: Shape, row: usize, col: usize) -> Option<usize> {
    let n = size_of(shape);
    if row >= n || col >= n {
        return None;
    }
    match shape {
        Shape::Orthogonal8 => Some(row * 8 + col),
        _ => ((row + col) % 2 == 1).then_some(row * (n / 2) + col / 2),
    }
}

/// The playable squares of the rectangle of `rows` x `cols` cells whose top-left cell is
/// (`row`, `col`).
fn rectangle(shape: Shape, row: usize, col: usize, rows: usize, cols: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for r in row..row + rows {
        for c in col..col + cols {
            if let Some(s) = square_at(shape, r, c) {
                out.push(s as u8);
            }
        }
    }
    out.sort_unstable();
    out
}

/// The default windows of a board shape (White's side; Black reads their rotations).
///
/// - 10x10: 4x4-cell windows of 8 squares at rows 4 and 6 (White's half, its rotation covers
///   Black's), columns 0, 2, 4, 6: Scan 2.0's 16 overlapping windows as 8 shared tables.
/// - 8x8 diagonal: 4x4-cell windows of 8 squares at rows 2 and 4, columns 0, 2, 4: 6 tables.
/// - 8x8 orthogonal: 3x3-cell windows of 9 squares at rows 1, 3, 5 and columns 0, 2, 3, 5
///   (columns mirror onto each other), 12 tables.
pub fn default_windows(shape: Shape) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    match shape {
        Shape::Diagonal10 => {
            for row in [4, 6] {
                for col in [0, 2, 4, 6] {
                    out.push(rectangle(shape, row, col, 4, 4));
                }
            }
        }
        Shape::Diagonal8 => {
            for row in [2, 4] {
                for col in [0, 2, 4] {
                    out.push(rectangle(shape, row, col, 4, 4));
                }
            }
        }
        Shape::Orthogonal8 => {
            for row in [1, 3, 5] {
                for col in [0, 2, 3, 5] {
                    out.push(rectangle(shape, row, col, 3, 3));
                }
            }
        }
    }
    out
}

/// Window layouts by name, for `kondavo train --layout`: `small` is the default; `large` has
/// Scan 3's 12-square windows (4x6 cells) on the diagonal boards (the orthogonal board keeps
/// its small windows); `kings` is `small` plus the same windows read with kings too (see
/// [`king_windows_named`]).
pub fn windows_named(shape: Shape, name: &str) -> Option<Vec<Vec<u8>>> {
    match name {
        "small" => Some(default_windows(shape)),
        "kings" => king_windows_named(shape, name).map(|_| default_windows(shape)),
        "large" => Some(match shape {
            Shape::Diagonal10 => {
                [0, 2, 4, 6].into_iter().map(|col| rectangle(shape, 4, col, 6, 4)).collect()
            }
            Shape::Diagonal8 => {
                [0, 2, 4].into_iter().map(|col| rectangle(shape, 2, col, 6, 4)).collect()
            }
            Shape::Orthogonal8 => default_windows(shape),
        }),
        _ => None,
    }
}

/// The king windows of a layout (empty for layouts without them; `None` when the layout
/// has none on this board). `kings` reads the small windows of the diagonal boards with
/// kings too (5^8 entries each); the orthogonal board's 9-square windows are too big for it.
pub fn king_windows_named(shape: Shape, name: &str) -> Option<Vec<Vec<u8>>> {
    match (name, shape) {
        ("kings", Shape::Orthogonal8) => None,
        ("kings", _) => Some(default_windows(shape)),
        _ => windows_named(shape, name).map(|_| Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Diag8, Diag10, Geometry, Ortho8};

    #[test]
    fn square_numbering_matches_the_geometries() {
        fn check<G: Geometry>() {
            for i in 0..G::SQUARES {
                let (r, c) = G::coords(i);
                assert_eq!(square_at(G::SHAPE, r, c), Some(i));
            }
        }
        check::<Diag10>();
        check::<Diag8>();
        check::<Ortho8>();
    }

    #[test]
    fn default_windows_cover_the_board_from_both_sides() {
        for (shape, name) in [Shape::Diagonal10, Shape::Diagonal8, Shape::Orthogonal8]
            .into_iter()
            .flat_map(|s| [(s, "small"), (s, "large")])
        {
            let n = squares_of(shape);
            let mut seen = vec![false; n];
            for w in windows_named(shape, name).unwrap() {
                assert!(!w.is_empty() && w.len() <= MAX_WINDOW);
                for &s in &w {
                    seen[s as usize] = true;
                    seen[n - 1 - s as usize] = true;
                }
            }
            assert!(seen.iter().all(|&x| x), "{shape:?}");
        }
    }
}
