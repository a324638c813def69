//! Writes a material-only weights file: a model with no pattern windows and a material table
//! that scores each side `man` centi-men per man and `king` per king (kings beyond three
//! count as three). Loaded with `eval-file`, it is the baseline a rule set's own evaluation
//! is screened against:
//!
//! ```sh
//! cargo run --release --example material_model -- breakthrough 100 300 bt-material.kdw
//! kondavo match -v breakthrough --engine "target/release/kondavo hub" \
//!     --engine "target/release/kondavo hub" --option E2:eval-file=bt-material.kdw \
//!     --tc nodes=2000 --games 200 --concurrency 2
//! ```
//!
//! Antidraughts' material counts against its owner: `antidraughts -100 -300`.

use kondavo::eval::model::{Model, material_index, param_count, shape_of};
use kondavo::variant::Variant;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [variant, man, king, out] = args.as_slice() else {
        return Err("usage: material_model VARIANT MAN KING OUT.kdw".into());
    };
    let base = variant.parse::<Variant>().map_err(|e| e.0)?.base;
    let man: i32 = man.parse().map_err(|e| format!("man: {e}"))?;
    let king: i32 = king.parse().map_err(|e| format!("king: {e}"))?;
    let n = param_count(shape_of(base), &[]).map_err(|e| e.0)?;
    let mut weights = vec![[0i16; 2]; n + kondavo::eval::model::material_size(base)];
    let most = base.men_per_side();
    for men in 0..=most {
        for kings in 0..=kondavo::eval::model::MATERIAL_KINGS {
            let value = (man * men as i32 + king * kings as i32) as i16;
            for their_men in 0..=most {
                for their_kings in 0..=kondavo::eval::model::MATERIAL_KINGS {
                    let i = n + material_index(base, men, kings, their_men, their_kings);
                    weights[i] = [value, value];
                }
            }
        }
    }
    let description = format!("material only: man {man}, king {king}");
    let model = Model::from_parts(base, 1, Vec::new(), weights, description).map_err(|e| e.0)?;
    std::fs::write(out, model.to_bytes()).map_err(|e| format!("{out}: {e}"))?;
    println!("wrote {out}");
    Ok(())
}
