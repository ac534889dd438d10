@THROW
Feature: Throwing in
  Once the bout is open, the attackers may add cards to it (throw them in), within the attack
  limits. A thrown-in card must match the rank of a card already on the table in this bout,
  attacking or defending, and the defender must answer it as well. This is what gives podkidnoy,
  the "throw-in fool", its name.

  Tables differ on when throw-ins may start, on which ranks count, and on who may throw in first
  when several players could. Everybody who could add a card must say that he adds nothing more
  (pass) before a bout that was fully beaten is over; a pass lapses again when the defender beats
  another card.

  Rule: A thrown-in card matches a rank on the table
    @R-THROW-1
    Scenario: The ranks of attack and defence cards both count, other ranks do not
      Given a 2-player podkidnoy game
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7D, 9D, KH
      And player 1 holds JC, QC, AC
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 9C
      Then player 0 may throw in 7D
      And player 0 may throw in 9D
      And player 0 may not throw in KH
      When player 0 throws in KH
      Then the move is refused citing R-THROW-1

    @R-THROW-1
    Scenario Outline: A rank brought by a later pair, with throw_in_ranks <throw_in_ranks>
      The first pair of the bout is 7C beaten by 9C; the jack came later, as a defence card. It
      is the first bout of the game: the players began it with the six cards dealt.

      Given a 2-player podkidnoy game
      And the option throw_in_ranks is <throw_in_ranks>
      And the trump suit is spades
      And the discard pile is empty
      And player 0 holds JH, 9H, 6S, KH
      And player 1 holds QC, AC, QD, AD
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 9C
      And player 0 has thrown in 7D
      And the defender has beaten 7D with JD
      Then player 0 may throw in 9H
      And player 0 <verdict> throw in JH

      Examples:
        | throw_in_ranks | verdict |
        | table          | may     |
        | first_pair     | may not |

  Rule: When throw-ins may be made
    @R-THROW-2
    Scenario Outline: Adding a card to an unbeaten lead, throw_in_timing <throw_in_timing>
      Given a 2-player podkidnoy game
      And the option throw_in_timing is <throw_in_timing>
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7D, KH
      And player 1 holds 9C, JC, QC
      And player 0 has attacked with 7C
      Then player 0 <verdict> throw in 7D

      Examples:
        | throw_in_timing  | verdict |
        | any_time         | may     |
        | after_first_beat | may not |
        | all_beaten       | may not |

    @R-THROW-2
    Scenario Outline: Adding a card while another is unbeaten after a beat, throw_in_timing <throw_in_timing>
      Given a 2-player podkidnoy game
      And the option throw_in_timing is <throw_in_timing>
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7H, KH
      And player 1 holds JD, QC, AC
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 9C
      And player 0 has thrown in 7D
      Then player 0 <verdict> throw in 7H

      Examples:
        | throw_in_timing  | verdict |
        | any_time         | may     |
        | after_first_beat | may     |
        | all_beaten       | may not |

    @R-THROW-2 @opt:throw_in_timing=after_first_beat
    Scenario: A throw-in before the first beat is refused
      Given a 2-player podkidnoy game
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7D, KH
      And player 1 holds 9C, JC, QC
      And player 0 has attacked with 7C
      When player 0 throws in 7D
      Then the move is refused citing R-THROW-2

    @R-THROW-2 @R-TAKE-2 @opt:pile_on=allowed
    Scenario Outline: After a take the timing no longer applies, throw_in_timing <throw_in_timing>
      Nothing has been beaten, yet once the defender takes the attacker may still pile on.

      Given a 2-player podkidnoy game
      And the option throw_in_timing is <throw_in_timing>
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7D, KH
      And player 1 holds 9C, JC, QC
      And player 0 has attacked with 7C
      And the defender has declared take
      Then player 0 may throw in 7D

      Examples:
        | throw_in_timing  |
        | after_first_beat |
        | all_beaten       |

  Rule: Who may throw in
    Every player who is not the defender (nor his partner) and still holds cards may join the
    attack; at some tables only the main attacker adds cards.

    @R-THROW-3 @opt:throw_in_priority=free
    Scenario Outline: A third player joins in, throwers <throwers>
      It is the first bout of the game: the players began it with the six cards dealt, and
      player 0 leads because his 6S is the lowest trump dealt.

      Given a 3-player podkidnoy game
      And the option throwers is <throwers>
      And the trump suit is spades
      And the discard pile is empty
      And player 0 holds KD, AD, 6S, 8D, TD
      And player 1 holds JC, QC, AC, QD, 8H
      And player 2 holds 7H, KH, 8S, JD, 6H, TH
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 9C
      Then player 2 <verdict> throw in 7H
      And player 2 <verdict> pass

      Examples:
        | throwers  | verdict |
        | all       | may     |
        | main_only | may not |

    @R-THROW-3 @opt:throw_in_priority=free @opt:throwers=main_only
    Scenario: Only the main attacker adds cards: a throw-in by another player is refused
      It is the first bout of the game: the players began it with the six cards dealt, and
      player 0 leads because his 6S is the lowest trump dealt.

      Given a 3-player podkidnoy game
      And the trump suit is spades
      And the discard pile is empty
      And player 0 holds KD, AD, 6S, 8D, TD
      And player 1 holds JC, QC, AC, QD, 8H
      And player 2 holds 7H, KH, 8S, JD, 6H, TH
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 9C
      When player 2 throws in 7H
      Then the move is refused citing R-THROW-3

  Rule: Priority among the attackers
    At a free table anyone may add a card at any moment. Elsewhere the main attacker comes
    first: either everybody may join once he has passed, or (the circle) the right goes round
    one player at a time, from the defender's left, and comes back to the main attacker each
    time the defender beats a card.

    @R-THROW-4
    Scenario Outline: Who may add the first card, throw_in_priority <throw_in_priority>
      Given a 3-player podkidnoy game
      And the option throw_in_priority is <throw_in_priority>
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7D, KD
      And player 1 holds JC, QC, AC, AS
      And player 2 holds 7H, KH
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 9C
      Then player 0 may throw in 7D
      And player 2 <verdict> throw in 7H

      Examples:
        | throw_in_priority | verdict |
        | free              | may     |
        | main_first        | may not |
        | circle            | may not |

    @R-THROW-4
    Scenario Outline: After the main attacker passes, throw_in_priority <throw_in_priority>
      Four players: player 0 attacked player 1 and has passed; players 2 and 3 could both add a
      card. It is the first bout of the game: the players began it with the six cards dealt, and
      player 0 leads because his 6S is the lowest trump dealt.

      Given a 4-player podkidnoy game
      And the option throw_in_priority is <throw_in_priority>
      And the trump suit is spades
      And the discard pile is empty
      And player 0 holds KD, AD, 6S, 8D, TD
      And player 1 holds JC, QC, AC, AS, 8H
      And player 2 holds 7H, KH, 6H, TH, JD, 8S
      And player 3 holds 9D, QD, 6D, 8C, TC, JH
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 9C
      And player 0 has passed
      Then player 2 may throw in 7H
      And player 3 <verdict> throw in 9D

      Examples:
        | throw_in_priority | verdict |
        | free              | may     |
        | main_first        | may     |
        | circle            | may not |

    @R-THROW-4 @opt:throw_in_priority=circle
    Scenario: In the circle the right passes on one player at a time
      It is the first bout of the game: the players began it with the six cards dealt, and
      player 0 leads because his 6S is the lowest trump dealt.

      Given a 4-player podkidnoy game
      And the trump suit is spades
      And the discard pile is empty
      And player 0 holds KD, AD, 6S, 8D, TD
      And player 1 holds JC, QC, AC, AS, 8H
      And player 2 holds 7H, KH, 6H, TH, JD, 8S
      And player 3 holds 9D, QD, 6D, 8C, TC, JH
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 9C
      And player 0 has passed
      When player 3 throws in 9D
      Then the move is refused citing R-THROW-4
      When player 2 passes
      Then player 3 may throw in 9D

    @R-THROW-4 @R-THROW-5
    Scenario Outline: The main attacker keeps the right while a card is unbeaten, throw_in_priority <throw_in_priority>
      Player 0 holds nothing he could add, and may not pass while 7C is unbeaten. It is the first
      bout of the game: the players hold the six cards dealt, player 0 (who holds the lowest
      trump) less the seven he led.

      Given a 3-player podkidnoy game
      And the option throw_in_priority is <throw_in_priority>
      And the trump suit is spades
      And the discard pile is empty
      And player 0 holds KD, AD, 6S, 8D, TD
      And player 1 holds 9C, JC, QC, 8H, 9H, TH
      And player 2 holds 7H, KH, 8S, JD, QD, 6H
      And player 0 has attacked with 7C
      Then player 0 has no move
      And player 2 <verdict> throw in 7H

      Examples:
        | throw_in_priority | verdict |
        | free              | may     |
        | main_first        | may not |
        | circle            | may not |

  Rule: Passing
    A player passes to say he adds nothing more for now. Only a player who could throw in now may
    pass, and only when every card is beaten (or the defender has declared take). Nobody's
    cards are looked at: every attacker in turn must pass, even one holding nothing that matches.

    @R-THROW-5
    Scenario: No pass while a card is unbeaten
      Given a 2-player podkidnoy game
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7D, KD
      And player 1 holds 9C, JC, QC
      And player 0 has attacked with 7C
      Then player 0 may not pass
      When player 0 passes
      Then the move is refused citing R-THROW-5

    @R-THROW-5 @R-BOUT-1 @opt:throw_in_priority=circle
    Scenario: Every attacker must pass, even one holding nothing to add
      Given a 3-player podkidnoy game
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7D, KD
      And player 1 holds JC, QC, AC, AS
      And player 2 holds KH, AH
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 9C
      When player 0 passes
      Then the bout goes on
      And player 2 may only pass
      When player 2 passes
      Then the bout ends and its cards are discarded

    @R-THROW-5 @opt:throw_in_priority=free
    Scenario: A player who has passed may neither throw in nor pass again
      Given a 3-player podkidnoy game
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7D, KD
      And player 1 holds JC, QC, AC, AS
      And player 2 holds 7H, KH
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 9C
      When player 0 passes
      Then player 0 has no move
      And player 2 may throw in 7H
      When player 0 throws in 7D
      Then the move is refused citing R-THROW-4

  Rule: A pass lapses when the defender beats a card
    At some tables any new card on the table, a throw-in too, wakes up the players who passed.

    @R-THROW-6 @opt:throw_in_priority=free
    Scenario Outline: Another player's throw-in and a pass, pass_reset <pass_reset>
      Given a 3-player podkidnoy game
      And the option pass_reset is <pass_reset>
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7D, KS
      And player 1 holds TH, QD, JD, AD
      And player 2 holds 7H, KD
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 9C
      When player 0 passes
      And player 2 throws in 7H
      Then player 0 <verdict> throw in 7D
      When the defender beats 7H with TH
      Then player 0 may throw in 7D
      And nobody has passed

      Examples:
        | pass_reset | verdict |
        | beat       | may not |
        | any_card   | may     |
