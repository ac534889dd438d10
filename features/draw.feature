@DRAW
Feature: Drawing from the talon
  When a bout is over, everybody who has fewer than six cards refills his hand from the talon:
  first the main attacker, then the other players clockwise from his left, the defender last.
  Most tables let each player take all the cards he needs before the next one draws; some deal
  them out one at a time, round after round. When the talon runs short the players later in the
  order get fewer cards or none, and the face-up trump card is always the very last card drawn.
  Once the talon is empty the game goes on without drawing.

  Rule: After each bout every hand is refilled to six
    @R-DRAW-1
    Scenario: A player holding six or more draws nothing
      The taker already holds seven cards; only the attacker draws.

      Given a 2-player podkidnoy game
      And the trump suit is spades
      And the talon, top first, is 6D, 7D, 8D, AS
      And player 0 holds 7C, 8C, 9C, TC, JC, QC
      And player 1 holds 6H, 7H, 8H, 9H, TH, JH
      When player 0 attacks with 7C
      And the defender takes
      And player 0 passes
      Then player 1 picks up the cards of the bout
      And player 1 holds 7 cards
      And player 0 holds 8C, 9C, TC, JC, QC, 6D
      And the talon, top first, is 7D, 8D, AS

  Rule: The main attacker draws first, the defender last
    @R-DRAW-2 @opt:throw_in_priority=circle
    Scenario Outline: Three hands to refill, draw_order <draw_order>
      Player 0 played two cards, player 2 one, and the defender beat three; six cards remain in
      the talon, spades are trumps.

      Given a 3-player podkidnoy game
      And the option draw_order is <draw_order>
      And the trump suit is spades
      And the talon, top first, is 6C, 8C, TC, 6D, 8D, AS
      And player 0 holds QC, KC, QD, KD
      And player 1 holds 6S, 7S, 8S
      And player 2 holds 6H, 8H, QH, KH, AH
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 9C
      And player 0 has thrown in 7D
      And the defender has beaten 7D with 9D
      And player 2 has thrown in 9H
      And the defender has beaten 9H with JH
      When player 0 passes
      And player 2 passes
      Then the bout ends and its cards are discarded
      And player 0 holds <hand 0>
      And player 2 holds <hand 2>
      And player 1 holds <hand 1>
      And the talon is empty

      Examples:
        | draw_order    | hand 0            | hand 2            | hand 1            |
        | fill_in_turn  | QC KC QD KD 6C 8C | 6H 8H QH KH AH TC | 6S 7S 8S 6D 8D AS |
        | one_at_a_time | QC KC QD KD 6C 6D | 6H 8H QH KH AH 8C | 6S 7S 8S TC 8D AS |

    @R-DRAW-2 @R-TAKE-3
    Scenario: After a take the taker still draws last
      Every hand began the bout with six (the talon lasted, R-DRAW-1), so the taker holds eight
      once he has picked up. The talon's two cards go to player 0, the main attacker, and to
      player 2, who threw in; the taker comes last and nothing is left for him.

      Given a 3-player podkidnoy game
      And the trump suit is spades
      And the talon, top first, is 6D, AS
      And player 0 holds 7C, 8C, 9C, TC, JC, QC
      And player 1 holds 6H, 8H, 9H, TH, JH, QH
      And player 2 holds 7H, KC, KD, KH, AC, AD
      When player 0 attacks with 7C
      And the defender takes
      And player 0 passes
      And player 2 throws in 7H
      And player 2 passes
      Then player 1 picks up the cards of the bout
      And player 0 holds 8C, 9C, TC, JC, QC, 6D
      And player 2 holds KC, KD, KH, AC, AD, AS
      And player 1 holds 6H, 8H, 9H, TH, JH, QH, 7C, 7H
      And the talon is empty

  Rule: A short talon leaves the last players short
    @R-DRAW-3
    Scenario: The attacker takes the rest of the talon and the defender gets nothing
      Given a 2-player podkidnoy game
      And the trump suit is hearts
      And the talon, top first, is 7S, AH
      And player 0 holds 7C, 7D, KS, QS, 8S, TS
      And player 1 holds 9C, 9D, JS, QD, KD, AD
      When player 0 attacks with 7C and 7D
      And the defender beats 7C with 9C
      And the defender beats 7D with 9D
      And player 0 passes
      Then the bout ends and its cards are discarded
      And player 0 holds KS, QS, 8S, TS, 7S, AH
      And player 0 is known to hold AH
      And player 1 holds JS, QD, KD, AD
      And the talon is empty

    @R-DRAW-3 @R-OUT-1 @R-ROLE-3
    Scenario: A defender left with no card when the talon runs dry is out
      Every hand began the bout with six, as while the talon lasts it must (R-DRAW-1): player 0
      has led six cards and the defender beats the sixth with his last. Player 0 draws the
      talon's two cards, player 2 needs none, and nothing is left for the defender.

      Given a 3-player podkidnoy game
      And the trump suit is spades
      And the talon, top first, is 7S, KS
      And player 0 attacks player 1
      And player 0 holds 0 cards
      And player 1 holds 6S
      And player 2 holds 8H, QH, AH, 9D, JH, TH
      And player 0 has attacked with 6C
      And the defender has beaten 6C with 7C
      And player 0 has thrown in 7D
      And the defender has beaten 7D with 8D
      And player 0 has thrown in 8C
      And the defender has beaten 8C with 9C
      And player 0 has thrown in 9H
      And the defender has beaten 9H with KH
      And player 0 has thrown in KC
      And the defender has beaten KC with AC
      And player 0 has thrown in AD
      When the defender beats AD with 6S
      Then the bout ends and its cards are discarded
      And player 0 holds 7S, KS
      And player 2 holds 8H, QH, AH, 9D, JH, TH
      And player 1 is out
      And the game goes on
      And player 2 attacks next
      And the defender is player 0
