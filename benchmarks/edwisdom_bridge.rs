//! A line-protocol bridge to ttr-core: one command a line in, one JSON line out.
//!
//! board                      -> the board: cities, colours, segments, tickets, actions
//! new SEED PLAYERS SEATS     -> a new game; SEATS is one tier a seat (h0..h4), `-` for a
//!                               seat played from outside; each heuristic is seeded as the
//!                               peer's arena seeds it (`begin_game(seat, SEED)`)
//! peer                       -> the seat to act is a heuristic: it acts, the move is played
//! step ACTION                -> the seat to act is played from outside: ACTION is played
//! Each game answer carries the whole position (the referee's, hidden parts included), its
//! sorted legal actions, and at the end the peer's own score breakdown and winners.
use std::io::{BufRead, Write};

use ttr_core::config::{RuleConfig, NO_TICKET};
use ttr_core::heuristic::{Heuristic, HeuristicParams, Tier};
use ttr_core::scoring::{score_breakdown, winners};
use ttr_core::state::{Game, State};

fn list<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let parts: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    format!("[{}]", parts.join(","))
}

fn quoted(items: &[&str]) -> String {
    list(items.iter().map(|s| format!("\"{s}\"")))
}

fn board_json(game: &Game) -> String {
    let b = game.board;
    let segs = (0..b.n_segments)
        .map(|s| list([b.seg_a[s] as u32, b.seg_b[s] as u32, b.seg_len[s] as u32, b.seg_color[s] as u32]));
    let tickets = (0..b.n_tickets)
        .map(|t| list([b.ticket_a[t] as u32, b.ticket_b[t] as u32, b.ticket_points[t] as u32]));
    format!(
        "{{\"cities\":{},\"colors\":{},\"locomotive\":{},\"segments\":{},\"tickets\":{},\"actions\":{}}}",
        quoted(b.raw.cities), quoted(b.raw.color_names), b.locomotive, list(segs), list(tickets),
        game.space.n,
    )
}

fn state_json(state: &mut State) -> String {
    let n = state.n_players();
    let k = state.board.n_card_types;
    let hands = (0..n).map(|p| list(state.hand[p * k..(p + 1) * k].iter().copied()));
    let tickets = (0..n).map(|p| list(state.tickets_of(p)));
    let offer = state.offer[..state.offer_len as usize].to_vec();
    let deck = state.deck[state.deck_pos as usize..state.deck_len as usize].to_vec();
    let cap = state.board.n_tickets;
    let tdeck: Vec<u8> = (0..state.tdeck_len as usize)
        .map(|i| state.tdeck[(state.tdeck_head as usize + i) % cap])
        .filter(|&t| t != NO_TICKET)
        .collect();
    let mut out = format!(
        "{{\"phase\":{},\"cur\":{},\"turn\":{},\"final_left\":{},\"pass_streak\":{},\"hands\":{},\
         \"trains\":{},\"score\":{},\"tickets\":{},\"offer\":{},\"faceup\":{},\"deck\":{},\
         \"discard\":{},\"tdeck\":{},\"owner\":{},\"legal\":{}",
        state.phase, state.cur, state.turn, state.final_left, state.pass_streak, list(hands),
        list(state.trains[..n].iter().copied()), list(state.score[..n].iter().copied()),
        list(tickets), list(offer), list(state.faceup.iter().copied()), list(deck),
        list(state.discard[..k].iter().copied()), list(tdeck),
        list(state.seg_owner[..state.board.n_segments].iter().copied()),
        list(state.legal_actions()),
    );
    if state.is_terminal() {
        let rows = score_breakdown(state).iter().map(|b| {
            list([b.routes as i32, b.tickets_made as i32, b.tickets_missed as i32,
                  b.ticket_points as i32, b.longest_bonus as i32, b.longest_trail as i32,
                  b.total as i32])
        }).collect::<Vec<_>>();
        out += &format!(",\"breakdown\":{},\"winners\":{}", list(rows), list(winners(state)));
    }
    out + "}"
}

struct Match {
    state: State,
    seats: Vec<Option<Heuristic>>,
}

fn new_match(args: &[&str]) -> Result<Match, String> {
    let [seed, players, seats] = args else { return Err("usage: new SEED PLAYERS SEATS".into()) };
    let seed: u64 = seed.parse().map_err(|_| format!("bad seed {seed}"))?;
    let players: usize = players.parse().map_err(|_| format!("bad player count {players}"))?;
    let cfg = RuleConfig::new("usa", players).map_err(|e| e.to_string())?;
    let game = Game::new(cfg).map_err(|e| e.to_string())?;
    let names: Vec<&str> = seats.split(',').collect();
    if names.len() != players {
        return Err(format!("{} seats named for {players} players", names.len()));
    }
    let mut out = Vec::new();
    for (seat, name) in names.iter().enumerate() {
        if *name == "-" {
            out.push(None);
            continue;
        }
        let tier = Tier::parse(name).ok_or_else(|| format!("unknown tier {name}"))?;
        let mut h = Heuristic::new(tier, HeuristicParams::default(), 0);
        h.begin_game(seat, seed);
        out.push(Some(h));
    }
    Ok(Match { state: game.new_initial_state(seed), seats: out })
}

fn answer(line: &str, game: &Game, current: &mut Option<Match>) -> Result<String, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["board"] => Ok(board_json(game)),
        ["new", rest @ ..] => {
            let mut m = new_match(rest)?;
            let s = state_json(&mut m.state);
            *current = Some(m);
            Ok(format!("{{\"state\":{s}}}"))
        }
        ["peer"] | ["step", _] => {
            let m = current.as_mut().ok_or("no game: send new first")?;
            if m.state.is_terminal() {
                return Err("the game is over".into());
            }
            let seat = m.state.current_player() as usize;
            let action = if let ["step", a] = words.as_slice() {
                if m.seats[seat].is_some() {
                    return Err(format!("seat {seat} is a heuristic's"));
                }
                a.parse::<u16>().map_err(|_| format!("bad action {a}"))?
            } else {
                let h = m.seats[seat].as_mut().ok_or(format!("seat {seat} is played from outside"))?;
                h.act(&mut m.state)
            };
            m.state.step(action).map_err(|e| format!("illegal {action}: {e}"))?;
            let s = state_json(&mut m.state);
            Ok(format!("{{\"action\":{action},\"state\":{s}}}"))
        }
        _ => Err(format!("unknown command {line:?}")),
    }
}

fn main() {
    let game = Game::new(RuleConfig::new("usa", 2).expect("usa/2")).expect("usa/2");
    let mut current: Option<Match> = None;
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.expect("stdin");
        let reply = match answer(line.trim(), &game, &mut current) {
            Ok(json) => json,
            Err(e) => format!("{{\"error\":\"{}\"}}", e.replace('\\', "\\\\").replace('"', "'")),
        };
        writeln!(stdout, "{reply}").expect("stdout");
        stdout.flush().expect("stdout");
    }
}
