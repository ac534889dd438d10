@TRANSFER
Feature: Transferring the attack (perevodnoy)
  In the transfer game the defender has one more answer: before he beats anything, he may lay a
  card of the same rank beside the attack and pass the whole attack on to the next player, who
  must now defend against all of it. The next player may pass it on again in the same way, so a
  bout can travel round the table. The new defender must be able to answer: he needs at least as
  many cards as there are attack cards. Some tables let a defender who holds the trump of that
  rank merely show it instead of playing it.

  Background:
    Given the trump suit is spades

  Rule: The defender passes the attack on with a card of its rank
    @R-TRANSFER-1 @R-TRANSFER-6
    Scenario: Player 1 adds a seven and player 2 must answer both
      Given a 3-player perevodnoy game
      And player 0 holds KD, AC, AH
      And player 1 holds 7D, QH, KH
      And player 2 holds 8C, 9C, AD
      And player 0 has attacked with 7C
      Then the defender may transfer with 7D
      When the defender transfers with 7D
      Then the defender is player 2
      And the table holds 7C unbeaten, 7D unbeaten
      And the defender may beat 7C with 8C
      And player 1 has no move

    @R-TRANSFER-1
    Scenario: Only cards of the attack rank pass the attack on
      Given a 3-player perevodnoy game
      And player 0 holds KD, AC, AH
      And player 1 holds 7D, QH, KH
      And player 2 holds 8C, 9C, AD
      And player 0 has attacked with 7C
      Then the defender may not transfer with QH
      When the defender transfers with QH
      Then the move is refused citing R-TRANSFER-1

    @R-TRANSFER-1
    Scenario: The throw-in game has no transfers
      Given a 3-player podkidnoy game
      And player 0 holds KD, AC, AH
      And player 1 holds 7D, QH, KH
      And player 2 holds 8C, 9C, AD
      And player 0 has attacked with 7C
      Then the defender may not transfer with 7D
      When the defender transfers with 7D
      Then the move is refused citing R-TRANSFER-1

  Rule: A transfer comes before any card is beaten
    @R-TRANSFER-2
    Scenario: Once a card is beaten, the attack stays with the defender
      The table shows sevens only, but one of them has been beaten.

      Given a 3-player perevodnoy game
      And player 0 holds KD, AC, AH
      And player 1 holds 7H, QH, KH
      And player 2 holds 8C, 9C, AD
      And player 0 has attacked with 7C, 7D
      And the defender has beaten 7C with 7S
      Then the defender may not transfer with 7H
      When the defender transfers with 7H
      Then the move is refused citing R-TRANSFER-2

    @R-TRANSFER-2
    Scenario Outline: A transfer in bout <bout>, transfer_condition <transfer_condition>
      Nothing has been discarded yet: everyone began bout 1 with the six cards dealt; bout 2
      follows a bout 1 that player 2 lost, picking up one card (he began bout 2 with seven).

      Given a 3-player perevodnoy game
      And the option transfer_condition is <transfer_condition>
      And the discard pile is empty
      And this is bout <bout>
      And player 0 holds KD, AC, AH, QD, JD
      And player 1 holds 7D, QH, KH, JH, TH, 9H
      And player 2 holds <hand 2>
      And player 0 has attacked with 7C
      Then the defender <verdict> transfer with 7D

      Examples:
        | transfer_condition | bout | hand 2                  | verdict |
        | before_first_beat  | 1    | 8C 9C AD 8D 9D TD       | may     |
        | not_first_bout     | 1    | 8C 9C AD 8D 9D TD       | may not |
        | not_first_bout     | 2    | 8C 9C AD 8D 9D TD 8H    | may     |

  Rule: The new defender must be able to answer
    @R-TRANSFER-3
    Scenario Outline: Passing two sevens to a player holding two cards, transfer_capacity <transfer_capacity>
      Given a 3-player perevodnoy game
      And the option transfer_capacity is <transfer_capacity>
      And player 0 holds KD, AC, AH, QD
      And player 1 holds 7D, QH, KH
      And player 2 holds 8C, 9C
      And player 0 has attacked with 7C
      Then the defender <verdict> transfer with 7D

      Examples:
        | transfer_capacity | verdict |
        | hand              | may     |
        | hand_and_limit    | may     |
        | hand_plus_one     | may not |

    @R-TRANSFER-3 @opt:decks=2 @opt:attack_limit=six_five_first
    Scenario Outline: Two packs: a transfer to six cards under a cap of five, transfer_capacity <transfer_capacity>
      Nothing has been discarded yet, so the cap is five; three sevens were led and the defender
      adds three more.

      Given a 3-player perevodnoy game
      And the option transfer_capacity is <transfer_capacity>
      And the discard pile is empty
      And player 0 holds KD, AD, 6S
      And player 1 holds 7S, 7C2, 7D2, KH, QH, JH
      And player 2 holds 8C, 9C, TC, JC, QC, KC
      And player 0 has attacked with 7C, 7D, 7H
      Then the defender <verdict> transfer with 7S, 7C2 and 7D2

      Examples:
        | transfer_capacity | verdict |
        | hand              | may     |
        | hand_and_limit    | may not |
        | hand_plus_one     | may not |

    @R-TRANSFER-3 @opt:transfer_capacity=hand_plus_one
    Scenario: A transfer the new defender could not answer is refused
      Given a 3-player perevodnoy game
      And player 0 holds KD, AC, AH, QD
      And player 1 holds 7D, QH, KH
      And player 2 holds 8C, 9C
      And player 0 has attacked with 7C
      When the defender transfers with 7D
      Then the move is refused citing R-TRANSFER-3

  Rule: One card or several
    @R-TRANSFER-4
    Scenario Outline: Transferring with two sevens at once, transfer_cards <transfer_cards>
      Given a 3-player perevodnoy game
      And the option transfer_cards is <transfer_cards>
      And player 0 holds KD, AC, AH
      And player 1 holds 7D, 7H, KH
      And player 2 holds 8C, 9C, AD
      And player 0 has attacked with 7C
      Then the defender may transfer with 7D
      And the defender <verdict> transfer with 7D and 7H

      Examples:
        | transfer_cards | verdict |
        | several        | may     |
        | one            | may not |

    @R-TRANSFER-4 @opt:transfer_cards=one
    Scenario: Two cards in one transfer are refused when only one is allowed
      Given a 3-player perevodnoy game
      And player 0 holds KD, AC, AH
      And player 1 holds 7D, 7H, KH
      And player 2 holds 8C, 9C, AD
      And player 0 has attacked with 7C
      When the defender transfers with 7D and 7H
      Then the move is refused citing R-TRANSFER-4

  Rule: The attack may travel all the way round
    @R-TRANSFER-5
    Scenario Outline: Two players: the transfer goes back to the attacker, transfer_around <transfer_around>
      Given a 2-player perevodnoy game
      And the option transfer_around is <transfer_around>
      And player 0 holds 8C, 9D, KS, QD
      And player 1 holds 7D, QH, KH
      And player 0 has attacked with 7C
      Then the defender <verdict> transfer with 7D

      Examples:
        | transfer_around | verdict |
        | allowed         | may     |
        | forbidden       | may not |

    @R-TRANSFER-5 @opt:transfer_around=allowed
    Scenario: Two players: the attacker must now answer both sevens
      Given a 2-player perevodnoy game
      And player 0 holds 8C, 9D, KS, QD
      And player 1 holds 7D, QH, KH
      And player 0 has attacked with 7C
      When the defender transfers with 7D
      Then the defender is player 0
      And the attacker is player 1
      And the defender may beat 7C with 8C
      And the defender may beat 7D with 9D

    @R-TRANSFER-5
    Scenario Outline: Three players: a second transfer would reach the opener, transfer_around <transfer_around>
      It is the first bout of the game: the players hold the six cards dealt, player 0 (who
      holds KS, the only trump dealt) less the seven he led. The three sevens stay under the
      first bout's cap of five, and player 0 holds enough cards to answer them.

      Given a 3-player perevodnoy game
      And the option transfer_around is <transfer_around>
      And the discard pile is empty
      And player 0 holds 8C, 9D, KS, QD, TD
      And player 1 holds 7D, QH, KH, JH, TH, 9H
      And player 2 holds 7H, AC, AD, AH, 9C, JC
      And player 0 has attacked with 7C
      When the defender transfers with 7D
      Then the defender <verdict> transfer with 7H

      Examples:
        | transfer_around | verdict |
        | allowed         | may     |
        | forbidden       | may not |

  Rule: Who is main attacker after a transfer
    @R-TRANSFER-6
    Scenario Outline: Three players, transfer_main_attacker <transfer_main_attacker>
      Given a 3-player perevodnoy game
      And the option transfer_main_attacker is <transfer_main_attacker>
      And player 0 holds KD, AC, AH
      And player 1 holds 7D, QH, KH
      And player 2 holds 8C, 9C, AD
      And player 0 has attacked with 7C
      When the defender transfers with 7D
      Then the main attacker is player <main>
      And the defender is player 2

      Examples:
        | transfer_main_attacker | main |
        | last_transferrer       | 1    |
        | original               | 0    |

    @R-TRANSFER-6 @opt:transfer_main_attacker=original
    Scenario: Two players: the original attacker now defends, so the transferrer leads the attack
      Given a 2-player perevodnoy game
      And player 0 holds 8C, 9D, KS, QD
      And player 1 holds 7D, QH, KH
      And player 0 has attacked with 7C
      When the defender transfers with 7D
      Then the main attacker is player 1
      And the defender is player 0

    @R-TRANSFER-6 @R-DRAW-2 @opt:throw_in_priority=free
    Scenario Outline: The main attacker after a transfer draws first, transfer_main_attacker <transfer_main_attacker>
      Player 1 passes player 0's seven on to player 2, who beats both sevens. Two cards remain
      in the talon, not enough for everybody: the main attacker draws the first, the other
      attacker the second, the defender nothing.

      Given a 3-player perevodnoy game
      And the option transfer_main_attacker is <transfer_main_attacker>
      And the talon, top first, is 6D, AS
      And player 0 holds KD, AC, AH, QC, JC
      And player 1 holds 7D, QH, KH, JH, TH, 9H
      And player 2 holds 8C, 9D, AD, KC, 6C, 6H
      And player 0 has attacked with 7C
      When the defender transfers with 7D
      And the defender beats 7C with 8C
      And the defender beats 7D with 9D
      And player 0 passes
      And player 1 passes
      Then the bout ends and its cards are discarded
      And player 0 holds <hand 0>
      And player 1 holds <hand 1>
      And player 2 holds AD, KC, 6C, 6H
      And player 2 attacks next

      Examples:
        | transfer_main_attacker | hand 0               | hand 1               |
        | last_transferrer       | KD AC AH QC JC AS    | QH KH JH TH 9H 6D    |
        | original               | KD AC AH QC JC 6D    | QH KH JH TH 9H AS    |

  Rule: Showing the trump of the attack rank
    @R-TRANSFER-7 @R-INFO-3
    Scenario Outline: Showing the seven of trumps before anything is beaten, trump_show <trump_show>
      Given a 3-player perevodnoy game
      And the option trump_show is <trump_show>
      And player 0 holds KD, AC, AH
      And player 1 holds 7S, QH, KH
      And player 2 holds 8C, 9C, AD
      And player 0 has attacked with 7C
      Then the defender <verdict> show the trump 7S

      Examples:
        | trump_show        | verdict |
        | off               | may not |
        | before_first_beat | may     |
        | any_time          | may     |

    @R-TRANSFER-7 @R-INFO-3 @opt:trump_show=before_first_beat
    Scenario: The shown trump stays in hand, known to all, and the attack moves on
      Given a 3-player perevodnoy game
      And player 0 holds KD, AC, AH
      And player 1 holds 7S, QH, KH
      And player 2 holds 8C, 9C, AD
      And player 0 has attacked with 7C
      When the defender shows the trump 7S
      Then the defender is player 2
      And the table holds 7C unbeaten
      And player 1 holds 7S, QH, KH
      And player 1 is known to hold 7S

    @R-TRANSFER-7
    Scenario Outline: Showing a trump after a card was beaten, trump_show <trump_show>
      It is the first bout of the game: the players began it with the six cards dealt. Player 0
      leads because his 6S is the lowest trump dealt, below the defender's 7S.

      Given a 3-player perevodnoy game
      And the option trump_show is <trump_show>
      And the discard pile is empty
      And player 0 holds KD, AC, AH, 6S
      And player 1 holds 7S, QH, KH, JH, TH
      And player 2 holds 8C, 9C, AD, 8D, 9D, TD
      And player 0 has attacked with 7C, 7D
      And the defender has beaten 7C with TC
      Then the defender <verdict> show the trump 7S

      Examples:
        | trump_show        | verdict |
        | before_first_beat | may not |
        | any_time          | may     |

  Rule: Each trump is shown once per bout
    @R-TRANSFER-8 @opt:trump_show=before_first_beat
    Scenario: The seven of trumps cannot be shown a second time
      Player 1 shows the seven of trumps to pass the attack to player 0, who passes it straight
      back with a seven of his own.

      Given a 2-player perevodnoy game
      And player 0 holds 7D, KD, AD
      And player 1 holds 7S, QH, KH, AH
      And player 0 has attacked with 7C
      When the defender shows the trump 7S
      And the defender transfers with 7D
      Then the defender is player 1
      And the defender may not show the trump 7S
      When the defender shows the trump 7S
      Then the move is refused citing R-TRANSFER-8
